//===- Log.h - Messages of the hetero runtime -------------------*- C++ -*-===//
//
// HETERO_INFO=1 turns on one line per launch (kernel, member, why) and the
// pool's make-up; errors are always printed, one line each, prefixed
// "hetero: error:".
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
/// Prints "hetero: warning: <message>" on stderr, always.
void warning(const char *Fmt, ...) __attribute__((format(printf, 1, 2)));

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
