//===- Trace.h - HETERO_TRACE: a timeline of chunks, copies, waits -*- C++
//-*-===//
//
// With HETERO_TRACE=<file>, every chunk a member runs, every copy between
// memory nodes and every wait of the launching thread is recorded with its
// start and end, and the file is written when the plugin stops, in the
// Chrome trace event format (JSON object form; opens in Perfetto or
// chrome://tracing; tools/trace-plot.py draws it to SVG):
//
//   - one lane ("thread") per pool member or memory node, named after it
//     (cuda:0, cpu, sim:1), and "host" for the thread that launches;
//   - complete events ("ph":"X", ts and dur in microseconds from the
//     plugin's start) of category chunk (name "<kernel> [lo,hi)", args
//     kernel, lo, hi), copy (name "h2d|d2h|d2d <size>", args bytes, from,
//     to, and queued:true for a copy of a batch, DataLayer.h, whose event
//     ends when it was queued), wait, launch, plan (a split launch's
//     planning and its data's copies) and finish (its bookkeeping and
//     reductions after the chunks).
//
// Recording costs one clock read and one locked append per event, and
// nothing when the trace is off. At most MaxEvents are kept (about 100 MB):
// later ones are counted, not kept, and the file and a warning say so.
//
//===----------------------------------------------------------------------===//
#ifndef HETERO_TRACE_H
#define HETERO_TRACE_H

#include "hetero/Status.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace hetero {

namespace trace {

constexpr size_t MaxEvents = 1000000;

/// Whether events are being recorded (cheap: one relaxed load).
bool on();
/// Starts recording; the file is written by finish(). Fails (nothing
/// recorded) when Path cannot be created.
Status start(const std::string &Path);
/// Microseconds since start().
double now();
/// Records a complete event on Lane. Args: the inside of a JSON object
/// ("\"bytes\":4096,..."), or empty.
void event(const std::string &Lane, const char *Category,
           const std::string &Name, double BeginUs, double EndUs,
           const std::string &Args = "");
/// Writes the file and stops recording; a no-op when not recording.
Status finish();
/// A string's JSON literal, quotes included.
std::string quoted(const std::string &S);

} // namespace trace

/// Records [construction, destruction) as one event when the trace is on.
class TraceSpan {
public:
  TraceSpan(const char *Lane, const char *Category, const char *Name)
      : Active(trace::on()) {
    if (Active) {
      this->Lane = Lane;
      this->Category = Category;
      this->Name = Name;
      Begin = trace::now();
    }
  }
  ~TraceSpan() {
    if (Active)
      trace::event(Lane, Category, Name, Begin, trace::now(), Args);
  }
  TraceSpan(const TraceSpan &) = delete;
  TraceSpan &operator=(const TraceSpan &) = delete;
  bool active() const { return Active; }
  void setName(std::string N) { Name = std::move(N); }
  void setArgs(std::string A) { Args = std::move(A); }

private:
  bool Active;
  std::string Lane, Name, Args;
  const char *Category = "";
  double Begin = 0;
};

} // namespace hetero

#endif // HETERO_TRACE_H
