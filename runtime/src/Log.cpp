//===- Log.cpp - Messages of the hetero runtime ---------------------------===//
#include "hetero/Log.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <mutex>
#include <unistd.h>

namespace hetero {

static std::mutex &logMutex() {
  static std::mutex M;
  return M;
}

static void emit(const char *Prefix, const char *Fmt, va_list Args) {
  char Line[1024];
  vsnprintf(Line, sizeof(Line), Fmt, Args);
  std::lock_guard<std::mutex> Lock(logMutex());
  fprintf(stderr, "hetero: %s%s\n", Prefix, Line);
}

static std::atomic<int> Level{0};

int infoLevel() { return Level.load(std::memory_order_relaxed); }

void setInfoLevel(int L) { Level.store(L, std::memory_order_relaxed); }

void info(int Level, const char *Fmt, ...) {
  if (infoLevel() < Level)
    return;
  va_list Args;
  va_start(Args, Fmt);
  emit("", Fmt, Args);
  va_end(Args);
}

void error(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  emit("error: ", Fmt, Args);
  va_end(Args);
}

void warning(const char *Fmt, ...) {
  va_list Args;
  va_start(Args, Fmt);
  emit("warning: ", Fmt, Args);
  va_end(Args);
}

static double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch())
      .count();
}

PhaseTimes::PhaseTimes() : Last(nowMs()) { Text[0] = 0; }

std::string binaryBytesText(uint64_t Bytes) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double V = static_cast<double>(Bytes);
  unsigned U = 0;
  while (V >= 1024 && U + 1 < sizeof(Units) / sizeof(Units[0])) {
    V /= 1024;
    ++U;
  }
  char Text[32];
  snprintf(Text, sizeof(Text), U ? "%.1f %s" : "%.0f %s", V, Units[U]);
  return Text;
}

void PhaseTimes::mark(const char *Phase) {
  double Now = nowMs();
  if (Used < sizeof(Text)) {
    int N = snprintf(Text + Used, sizeof(Text) - Used, "%s%s %.1f ms",
                     Used ? ", " : "", Phase, Now - Last);
    if (N > 0)
      Used += static_cast<size_t>(N);
  }
  Last = Now;
}

void PhaseTimes::report(const char *What) const {
  info(2, "%s: %s", What, Text);
}

static void onFatalSignal(int Sig) {
  static const char Msg[] = "hetero: fatal signal; backtrace:\n";
  ssize_t Ignored = write(STDERR_FILENO, Msg, sizeof(Msg) - 1);
  (void)Ignored;
  void *Frames[64];
  int N = backtrace(Frames, 64);
  backtrace_symbols_fd(Frames, N, STDERR_FILENO);
  signal(Sig, SIG_DFL);
  raise(Sig);
}

void installCrashHandler() {
  for (int Sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    signal(Sig, onFatalSignal);
}

} // namespace hetero
