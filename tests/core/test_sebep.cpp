// test_sebep.cpp
#include "pe_fixture.h"
