//===- Trace.cpp - HETERO_TRACE: a timeline of chunks, copies, waits ------===//
#include "hetero/Trace.h"

#include <chrono>
#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace hetero {
namespace trace {
namespace {

struct Event {
  unsigned Lane;
  const char *Category;
  std::string Name, Args;
  double Begin, End;
};

struct Recorder {
  std::mutex Mutex;
  std::string Path;
  std::chrono::steady_clock::time_point Start;
  std::map<std::string, unsigned> Lanes;
  std::vector<Event> Events;
  uint64_t Dropped = 0;
};

std::atomic<bool> Recording{false};

Recorder &recorder() {
  static Recorder R;
  return R;
}

} // namespace

bool on() { return Recording.load(std::memory_order_relaxed); }

Status start(const std::string &Path) {
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  // Created now, so that a path that cannot be written stops the run before
  // it starts rather than losing the trace at its end.
  FILE *F = fopen(Path.c_str(), "w");
  if (!F)
    return Status::error(StatusCode::Invalid,
                         "HETERO_TRACE=" + Path + ": cannot create the file");
  fclose(F);
  R.Path = Path;
  R.Start = std::chrono::steady_clock::now();
  R.Lanes = {{"host", 0}};
  R.Events.clear();
  R.Dropped = 0;
  Recording = true;
  return Status();
}

double now() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now() - recorder().Start)
      .count();
}

void event(const std::string &Lane, const char *Category,
           const std::string &Name, double BeginUs, double EndUs,
           const std::string &Args) {
  if (!on())
    return;
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  if (R.Events.size() >= MaxEvents) {
    ++R.Dropped;
    return;
  }
  auto It = R.Lanes.try_emplace(Lane, unsigned(R.Lanes.size())).first;
  R.Events.push_back({It->second, Category, Name, Args, BeginUs, EndUs});
}

std::string quoted(const std::string &S) {
  std::string Out = "\"";
  for (char C : S) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (static_cast<unsigned char>(C) < 0x20) {
      char Esc[8];
      snprintf(Esc, sizeof(Esc), "\\u%04x", C);
      Out += Esc;
    } else {
      Out += C;
    }
  }
  return Out + "\"";
}

Status finish() {
  if (!on())
    return Status();
  Recorder &R = recorder();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  Recording = false;
  FILE *F = fopen(R.Path.c_str(), "w");
  if (!F)
    return Status::error(StatusCode::Invalid,
                         "HETERO_TRACE=" + R.Path + ": cannot write the file");
  fprintf(F,
          "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"dropped_events\":"
          "%llu},\"traceEvents\":[\n",
          static_cast<unsigned long long>(R.Dropped));
  fprintf(F, "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{"
             "\"name\":\"hetero\"}}");
  for (const auto &[Name, Id] : R.Lanes)
    fprintf(F,
            ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
            "\"args\":{\"name\":%s}}",
            Id, quoted(Name).c_str());
  for (const Event &E : R.Events)
    fprintf(F,
            ",\n{\"name\":%s,\"cat\":\"%s\",\"ph\":\"X\",\"ts\":%.3f,"
            "\"dur\":%.3f,\"pid\":1,\"tid\":%u,\"args\":{%s}}",
            quoted(E.Name).c_str(), E.Category, E.Begin, E.End - E.Begin,
            E.Lane, E.Args.c_str());
  fprintf(F, "\n]}\n");
  bool Ok = !ferror(F);
  Ok = fclose(F) == 0 && Ok;
  uint64_t Dropped = R.Dropped;
  R.Events.clear();
  R.Events.shrink_to_fit();
  if (!Ok)
    return Status::error(StatusCode::Invalid,
                         "HETERO_TRACE=" + R.Path + ": writing failed");
  if (Dropped)
    return Status::error(StatusCode::Invalid,
                         "HETERO_TRACE=" + R.Path + ": the first " +
                             std::to_string(MaxEvents) + " events were kept, " +
                             std::to_string(Dropped) + " later ones dropped");
  return Status();
}

} // namespace trace
} // namespace hetero
