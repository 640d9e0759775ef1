//===- Log.cpp - Messages of the hetero runtime ---------------------------===//
#include "hetero/Log.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <mutex>

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

int infoLevel() {
  static const int Level = [] {
    const char *S = getenv("HETERO_INFO");
    return S ? atoi(S) : 0;
  }();
  return Level;
}

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

} // namespace hetero
