#include "pmucat/mid.h"
#include "mid_private.h"
#include "top/top_detail.h"
#include "common/app.h"
#include "extra.h"

int mid() { return base(); }
