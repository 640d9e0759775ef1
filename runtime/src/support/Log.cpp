//===- Log.cpp - Messages of the hetero runtime ---------------------------===//
#include "hetero/Log.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <map>
#include <mutex>
#include <string>
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

namespace {
/// Warnings said so far, with how often each came again unsaid.
struct SaidWarnings {
  std::mutex Mutex;
  std::map<std::string, uint64_t> Repeats;
  uint64_t Unsaid = 0;
};
SaidWarnings &saidWarnings() {
  static SaidWarnings *W = new SaidWarnings; // outlives exit handlers
  return *W;
}
} // namespace

void warning(const char *Fmt, ...) {
  char Line[1024];
  va_list Args;
  va_start(Args, Fmt);
  vsnprintf(Line, sizeof(Line), Fmt, Args);
  va_end(Args);
  SaidWarnings &W = saidWarnings();
  {
    std::lock_guard<std::mutex> Lock(W.Mutex);
    auto It = W.Repeats.find(Line);
    if (It != W.Repeats.end()) {
      ++It->second;
      ++W.Unsaid;
      return;
    }
    if (W.Repeats.size() < MaxDistinctWarnings)
      W.Repeats.emplace(Line, 0);
  }
  std::lock_guard<std::mutex> Lock(logMutex());
  fprintf(stderr, "hetero: warning: %s\n", Line);
}

void reportRepeatedWarnings() {
  SaidWarnings &W = saidWarnings();
  std::lock_guard<std::mutex> Lock(W.Mutex);
  if (!W.Unsaid)
    return;
  std::string Which;
  unsigned Listed = 0, Repeated = 0;
  for (const auto &[Text, N] : W.Repeats) {
    if (!N)
      continue;
    if (++Repeated <= 3)
      Which += (Which.empty() ? "" : "; ") + std::to_string(N) + "x '" +
               Text.substr(0, 72) + (Text.size() > 72 ? "...'" : "'");
    Listed += Repeated <= 3;
  }
  if (Repeated > Listed)
    Which += "; " + std::to_string(Repeated - Listed) + " more";
  std::lock_guard<std::mutex> Out(logMutex());
  fprintf(stderr,
          "hetero: warning: %llu repeats of warnings above were not printed "
          "(%s)\n",
          static_cast<unsigned long long>(W.Unsaid), Which.c_str());
  W.Unsaid = 0;
  for (auto &[Text, N] : W.Repeats)
    N = 0;
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
