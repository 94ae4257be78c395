#pragma once
#include "pmucat/orphan.h"
int base();
