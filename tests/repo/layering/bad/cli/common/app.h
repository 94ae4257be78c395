#pragma once
int helper();
