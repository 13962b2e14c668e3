// load_file / load_bytes: read the file, detect its format, hand it to the
// matching loader, and turn every failure into an error value.
#include "profiler_ui/model/load.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "profiler_ui/model/load_kilntrace.h"
#include "traces/protocol.h"

namespace kiln::inspect {

namespace {

// The first byte that is not JSON whitespace (or a UTF-8 byte order mark).
char first_significant(const std::string& s) {
  size_t i = s.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return i < s.size() ? s[i] : '\0';
}

}  // namespace

LoadResult load_bytes(std::string bytes, const std::string& name) {
  try {
    if (bytes.compare(0, trace::kMagic.size(), trace::kMagic) == 0) return load_kilntrace_bytes(std::move(bytes), name);
    char c = first_significant(bytes);
    if (c == '[' || c == '{') return load_chrome_json_bytes(bytes, name);
    if (bytes.empty()) return {nullptr, name + ": the file is empty (not a kiln trace)"};
    return {nullptr, name + ": not a kiln trace: expected a .kilntrace file (starting with KILNTRC1) or a Chrome trace "
                            "JSON array written by `kiln run --trace`"};
  } catch (const std::exception& e) {
    return {nullptr, name + ": " + e.what()};
  }
}

LoadResult load_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {nullptr, "cannot open " + path + ": " + std::strerror(errno)};
  in.seekg(0, std::ios::end);
  std::streamoff size = in.tellg();
  if (size < 0) return {nullptr, "cannot read " + path + " (not a regular file?)"};
  if (size_t(size) > kMaxTraceFileBytes)
    return {nullptr, path + " is " + std::to_string(size >> 20) + " MiB, over the inspector's 4 GiB limit"};
  in.seekg(0);
  std::string bytes(size_t(size), '\0');
  if (size > 0 && !in.read(bytes.data(), size)) return {nullptr, "cannot read " + path + ": " + std::strerror(errno)};
  return load_bytes(std::move(bytes), path);
}

}  // namespace kiln::inspect
