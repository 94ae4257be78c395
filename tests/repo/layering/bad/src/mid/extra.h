#pragma once
int extra();
