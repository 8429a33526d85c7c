#include "ete_fixture.h"
