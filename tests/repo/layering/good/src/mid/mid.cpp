#include "pmucat/mid.h"
#include "mid_private.h"

int mid() { return base(); }
