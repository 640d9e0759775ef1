//===- Log.h - Messages of the hetero runtime -------------------*- C++ -*-===//
//
// HETERO_INFO=1 turns on a line per kernel (what its launches do, and
// again whenever that changes) and the pool's make-up; 2 a line per launch.
// Errors are always printed, one line each, prefixed "hetero: error:";
// warnings too, each distinct one once, with a count of repeats at exit.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_LOG_H
#define HETERO_LOG_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace hetero {

/// Verbosity (HETERO_INFO; 0 until the plugin has read its settings).
int infoLevel();
void setInfoLevel(int Level);
/// Prints "hetero: <message>" on stderr when HETERO_INFO >= Level.
void info(int Level, const char *Fmt, ...)
    __attribute__((format(printf, 2, 3)));
/// Prints "hetero: error: <message>" on stderr, always.
void error(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
/// Prints "hetero: warning: <message>" on stderr, once: a message said
/// before (the same kernel, member and reason at every launch) is only
/// counted, and reportRepeatedWarnings() says how often.
void warning(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));
/// Distinct warnings remembered; past this many, new ones are all printed.
constexpr size_t MaxDistinctWarnings = 4096;
/// "hetero: warning: <n> repeats of warnings above were not printed (...)"
/// when there were any (at the end of the run); counts start again.
void reportRepeatedWarnings();

/// "512 B", "1.5 MiB", "79.2 GiB": a byte count in binary units, for
/// messages (the largest unit the count reaches, one decimal).
std::string binaryBytesText(uint64_t Bytes);

/// Times the phases of a start or a stop: report() prints, at HETERO_INFO
/// >= 2, "hetero: <what>: <phase> <ms> ms, ..." (a cost outside the
/// program's own timer is still a cost to the user).
class PhaseTimes {
public:
  PhaseTimes();
  /// Ends the current phase, naming it.
  void mark(const char *Phase);
  void report(const char *What) const;

private:
  double Last;
  char Text[512];
  size_t Used = 0;
};

/// From now on a fatal signal prints a backtrace first (HETERO_BACKTRACE=1).
void installCrashHandler();

} // namespace hetero

#endif // HETERO_LOG_H
