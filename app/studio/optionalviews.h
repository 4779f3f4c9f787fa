// SPDX-License-Identifier: Apache-2.0
// The views other parts of the studio provide (graph diff, node list, matching, details). Each is docked when
// its header is present in views/; otherwise the shell shows a named placeholder in its place.
#pragma once

#if __has_include("graph/graphdiffview.h") && __has_include("graph/nodelistpanel.h")
#define MSPROBE_HAVE_GRAPH_VIEW 1
#include "graph/graphdiffview.h"
#include "graph/nodelistpanel.h"
#else
#define MSPROBE_HAVE_GRAPH_VIEW 0
#endif

#if __has_include("match/matchcontroller.h") && __has_include("match/nodematchpanel.h")
#define MSPROBE_HAVE_MATCHING 1
#include "match/matchcontroller.h"
#include "match/nodematchpanel.h"
#else
#define MSPROBE_HAVE_MATCHING 0
#endif

#if __has_include("details/nodedetailspanel.h")
#define MSPROBE_HAVE_DETAILS 1
#include "details/nodedetailspanel.h"
#else
#define MSPROBE_HAVE_DETAILS 0
#endif
