#pragma once
#include "pmucat/base.h"
int mid();
