// A test of mid that does not say it is internal.
#include "mid/mid_private.h"
#include "pmucat/top.h"
#include "common/app.h"
