// test_snapshot.cpp
#include "pe_fixture.h"
