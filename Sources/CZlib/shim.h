#ifndef LAUNCHFLOW_CZLIB_SHIM_H
#define LAUNCHFLOW_CZLIB_SHIM_H

#include <zlib.h>

/* inflateInit2 is a macro, which Swift cannot call: this is it as a function.
   windowBits 15 + 32: a zlib or gzip header, detected. */
static inline int launchflow_inflate_init(z_streamp stream) { return inflateInit2(stream, 15 + 32); }

#endif
