#pragma once
int top_detail();
