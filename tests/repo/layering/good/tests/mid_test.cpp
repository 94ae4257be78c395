// Internal unit test of src/mid/mid_private.h: may include it.
#include "mid/mid_private.h"
#include "helper.h"
#include "pmucat/top.h"
