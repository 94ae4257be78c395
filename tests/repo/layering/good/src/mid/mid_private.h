#pragma once
int mid_private();
