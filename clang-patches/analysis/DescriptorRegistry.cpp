//===- DescriptorRegistry.cpp - Kernel descriptors, AST to IR -------------===//
#include "DescriptorRegistry.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>

namespace hetero {
namespace {
struct Entry {
  std::string Text;
  bool Ambiguous = false;
};
std::mutex RegistryMutex;
std::atomic<bool> AnalysisRan{false};
std::map<std::string, Entry> &registry() {
  static std::map<std::string, Entry> R;
  return R;
}
} // namespace

std::string kernelKey(const std::string &Parent, unsigned Line) {
  return Parent + ":" + std::to_string(Line);
}

void recordDescriptor(const std::string &Key, const std::string &Text) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  if (getenv("HETERO_DESC_DEBUG"))
    fprintf(stderr, "hetero-desc %s:\n%s", Key.c_str(), Text.c_str());
  auto [It, New] = registry().try_emplace(Key);
  if (!New && It->second.Text != Text)
    It->second.Ambiguous = true;
  It->second.Text = Text;
}

bool lookupDescriptor(const std::string &Key, std::string &Text) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  auto It = registry().find(Key);
  if (It == registry().end() || It->second.Ambiguous)
    return false;
  Text = It->second.Text;
  return true;
}

void noteAnalysisRan() { AnalysisRan = true; }
bool analysisRan() { return AnalysisRan; }

} // namespace hetero
