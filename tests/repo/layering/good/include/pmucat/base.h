#pragma once
int base();
