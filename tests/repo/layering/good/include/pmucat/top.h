#pragma once
#include <pmucat/mid.h>
int top();
