#ifndef LAUNCHFLOW_CGRAPHVIZ_SHIM_H
#define LAUNCHFLOW_CGRAPHVIZ_SHIM_H

#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>

/* Swift 6 rejects the C globals Agdirected/Agstrictdirected as shared mutable
   state; these return them by value. */
static inline Agdesc_t launchflow_agdirected(void) { return Agdirected; }
static inline Agdesc_t launchflow_agstrictdirected(void) { return Agstrictdirected; }

#endif
