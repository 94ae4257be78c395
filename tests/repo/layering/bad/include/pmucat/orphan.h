#pragma once
int orphan();
