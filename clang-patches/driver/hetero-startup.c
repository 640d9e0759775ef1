// Linked into every program the hetero entry points link (hetero-clang.in).
// Two checks before main, so that no run differs from what was asked
// without a word:
//   - under LIBOMPTARGET_PLUGIN=hetero, a program must run on hetero's
//     libomptarget: another one on the library path (LD_LIBRARY_PATH, an
//     rpath a build system put first) would ignore the setting and run on
//     its own plugins. If the loaded libomptarget is not hetero's (it lacks
//     __hetero_runtime_version), the program says which one it loaded and
//     stops;
//   - HETERO_ settings (SettingNames.def) in a run that does not select
//     hetero (LIBOMPTARGET_PLUGIN unset, or naming other plugins only: a
//     misspelt "heter") are ignored: one warning says so. Not when offload
//     is disabled (OMP_TARGET_OFFLOAD=DISABLED), where nothing is offloaded
//     at all, as the user asked.
// And one setting for the OpenMP runtime (libomp has read its environment
// by now: libomptarget's start initialises it), through kmp_set_defaults:
// hetero runs kernels on several CPU-side members at once, each an OpenMP
// root with its own team, which oversubscribes the cores, so libomp's
// threads sleep between loops; its work stealing for schedule(dynamic)
// (nonmonotonic, the default) then fails now and then (LLVM 19's libomp
// asserted 'vnew.p.ub * (UT)chunk <= trip' in kmp_dispatch.cpp over two
// H200s and 32 cores; llvm-project issues 86995 and 132164). Under hetero,
// dynamic loops take the monotonic schedule (a shared counter) unless the
// user set KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE.
#define _GNU_SOURCE // dladdr
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

extern char **environ;

// Whether the comma-separated list names Plugin.
static int namesPlugin(const char *List, const char *Plugin) {
  size_t Len = strlen(Plugin);
  for (const char *P = List; P && *P;) {
    const char *End = strchr(P, ',');
    size_t N = End ? (size_t)(End - P) : strlen(P);
    if (N == Len && strncmp(P, Plugin, Len) == 0)
      return 1;
    P = End ? End + 1 : NULL;
  }
  return 0;
}

static int isSetting(const char *Entry) {
  static const char *const Settings[] = {
#define HETERO_SETTING(Name) #Name,
#include "hetero/SettingNames.def"
  };
  size_t Len = strcspn(Entry, "=");
  for (size_t I = 0; I < sizeof(Settings) / sizeof(Settings[0]); ++I)
    if (strlen(Settings[I]) == Len && strncmp(Entry, Settings[I], Len) == 0)
      return 1;
  return 0;
}

static void warnIfSettingsIgnored(const char *Plugins) {
  const char *Offload = getenv("OMP_TARGET_OFFLOAD");
  if (Offload && strcasecmp(Offload, "disabled") == 0)
    return;
  const char *First = NULL;
  unsigned More = 0;
  for (char **E = environ; E && *E; ++E)
    if (isSetting(*E)) {
      if (First)
        ++More;
      else
        First = *E;
    }
  if (!First)
    return;
  char Others[64] = "";
  if (More)
    snprintf(Others, sizeof(Others), " (and %u more HETERO_ setting%s)", More,
             More == 1 ? "" : "s");
  fprintf(stderr,
          "hetero: warning: %.*s is set%s, but LIBOMPTARGET_PLUGIN%s%s%s: "
          "this run does not use hetero, and ignores its settings (run it "
          "with LIBOMPTARGET_PLUGIN=hetero)\n",
          (int)strcspn(First, "="), First, Others, Plugins ? "=" : "",
          Plugins ? Plugins : " is unset",
          Plugins ? " does not select hetero" : "");
}

typedef void (*SetDefaultsFn)(const char *);

static void preferMonotonicDynamic(void) {
  if (getenv("KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE"))
    return;
  SetDefaultsFn Set = (SetDefaultsFn)dlsym(RTLD_DEFAULT, "kmp_set_defaults");
  if (!Set)
    return;
  // kmp_set_defaults also resets the affinity format to libomp's default:
  // the user's is given again.
  char Defaults[512] = "KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE=1";
  const char *Format = getenv("OMP_AFFINITY_FORMAT");
  if (Format && !strchr(Format, '|') && strlen(Format) < 400)
    snprintf(Defaults, sizeof(Defaults),
             "KMP_FORCE_MONOTONIC_DYNAMIC_SCHEDULE=1|OMP_AFFINITY_FORMAT=%s",
             Format);
  Set(Defaults);
}

__attribute__((constructor)) static void heteroCheckRuntime(void) {
  const char *Plugins = getenv("LIBOMPTARGET_PLUGIN");
  if (!Plugins || !namesPlugin(Plugins, "hetero")) {
    warnIfSettingsIgnored(Plugins);
    return;
  }
  if (dlsym(RTLD_DEFAULT, "__hetero_runtime_version")) {
    preferMonotonicDynamic();
    return;
  }
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
