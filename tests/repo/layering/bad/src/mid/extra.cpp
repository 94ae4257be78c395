#include "extra.h"
#include "mid/mid_private.h"
#include "pmucat/mid.h"

int extra() { return mid(); }
