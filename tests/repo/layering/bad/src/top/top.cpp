#include "pmucat/top.h"
#include "pmucat/base.h"  // through mid_extra and mid
#include "top_detail.h"
#include "mid/extra.h"
#include "generated.pb.h"  // in the build tree: not checked

int top() { return extra() + base(); }
