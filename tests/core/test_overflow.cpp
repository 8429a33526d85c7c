#include "pe_fixture.h"
