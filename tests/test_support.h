#pragma once
// The test helper library (tests/testing/) in one include, for the tests.
#include "testing/cli.h"
#include "testing/replays.h"
#include "testing/scenarios.h"
#include "testing/scripted_stream.h"
#include "testing/statistical_assertions.h"
#include "testing/statistical_bounds.h"
#include "testing/traces.h"
