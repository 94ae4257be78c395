#include "pmucat/base.h"

#include <vector>

int base() { return 1; }
