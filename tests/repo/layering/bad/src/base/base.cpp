#include "pmucat/base.h"
#include "pmucat/mid.h"
#include "../../tests/helper.h"

int base() { return 1; }
