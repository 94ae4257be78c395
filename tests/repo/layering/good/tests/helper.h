#pragma once
int test_helper();
