// Linked into every program the hetero entry points link (hetero-clang.in).
// Under LIBOMPTARGET_PLUGIN=hetero, a program must run on hetero's
// libomptarget: another one on the library path (LD_LIBRARY_PATH, an rpath
// a build system put first) would ignore the setting and run on its own
// plugins, a different run without a word. So before main, if the loaded
// libomptarget is not hetero's (it lacks __hetero_runtime_version), the
// program says which one it loaded and stops.
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((constructor)) static void heteroCheckRuntime(void) {
  const char *Plugins = getenv("LIBOMPTARGET_PLUGIN");
  if (!Plugins || !strstr(Plugins, "hetero"))
    return;
  if (dlsym(RTLD_DEFAULT, "__hetero_runtime_version"))
    return;
  const char *Loaded = "no libomptarget";
  Dl_info Info;
  void *Entry = dlsym(RTLD_DEFAULT, "__tgt_register_lib");
  if (Entry && dladdr(Entry, &Info) && Info.dli_fname)
    Loaded = Info.dli_fname;
  fprintf(stderr,
          "hetero: error: LIBOMPTARGET_PLUGIN=%s, but this program loaded %s, "
          "which is not hetero's libomptarget (check LD_LIBRARY_PATH and the "
          "program's RUNPATH: readelf -d)\n",
          Plugins, Loaded);
  fflush(stderr);
  _Exit(EXIT_FAILURE);
}
