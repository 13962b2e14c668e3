// A keyed, checksummed cache file, the on-disk format shared by the JIT's
// caches (CPU objects in jit/kernel_cache.h, GPU images in
// jit/gpu_image_cache.h):
//
//   magic line                  "KILNOBJ1\n", one per kind of cache
//   "name value" lines          the key and other metadata, in order
//   "<section>_bytes N" lines   one per payload section
//   "checksum <hex>"            FNV-1a over all sections, in order
//   a blank line, then the sections' bytes back to back
//
// The checksum covers the sections, not the header (nor where one section
// ends): a damaged header shows as wrong sizes or as a key mismatch, since
// readers compare the stored key, kernel IR included, with the wanted one.
//
// The file names only a hash of the key, so a file found under the wanted
// name may still be foreign (another version, another target, a collision):
// it carries its whole key, and readers compare it field by field
// (first_mismatch) before trusting the payload.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::jit::cache_file {

struct Field {
  std::string name, value;
};

// What a kind of cache file looks like, besides its fields' values.
struct Layout {
  std::string magic;                  // the first line, newline included
  std::vector<std::string> sections;  // payload sections' names, in file order
  // Header fields that must be present and non-empty (a file without them is
  // reported as truncated, as a cut-short header would be).
  std::vector<std::string> required;
};

// A parsed file: its header fields in file order, and its sections in the
// layout's order.
struct Contents {
  std::vector<Field> fields;
  std::vector<std::string> sections;

  // A header field's value (the last one when repeated), else a section's
  // bytes by its layout name; null when the file has neither.
  const std::string* get(const Layout& layout, const std::string& name) const;
};

std::string serialize(const Layout& layout, const std::vector<Field>& fields, const std::vector<std::string>& sections);

// Parses `bytes`; on failure `why` says what is wrong with the file (bad
// magic, truncated, padded, corrupt) and `out` is unspecified.
bool parse(const Layout& layout, const std::string& bytes, Contents& out, std::string& why);

// A part of the key a reader wants, compared with the stored one. A long or
// multi-line value (kernel IR) is named, not quoted, in a mismatch report.
struct KeyField {
  std::string name;   // the header field or section holding it
  std::string value;  // the wanted value
  std::string label;  // how a report names it: "kiln version"
  bool quote = true;  // whether a report shows the stored and wanted values
};

struct Mismatch {
  const KeyField* field;  // the first wanted field that differs
  std::string stored;     // its stored value ("" when the file lacks it)
  // "kiln version: stored 0.3, now 0.4", or just the label when not quoted.
  std::string describe() const;
};

// The first key field whose stored value differs from the wanted one.
std::optional<Mismatch> first_mismatch(const Layout& layout, const std::vector<KeyField>& want, const Contents& have);

// FNV-1a: the checksum, and the hash that names a key's file.
uint64_t fnv1a(const std::string& s, uint64_t h = 0xcbf29ce484222325ull);
std::string hex(uint64_t h);  // 16 lowercase digits

std::string read(const std::string& path);  // "" when unreadable

// Writes `bytes` to `path` (creating `dir`) under a temporary name and renames
// it, so a concurrent reader (another kiln process) sees the old file or the
// new one, never half of one. Returns "" on success, else what failed.
std::string write_atomically(const std::string& dir, const std::string& path, const std::string& bytes);

}  // namespace kiln::jit::cache_file
