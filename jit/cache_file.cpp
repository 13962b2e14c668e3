#include "jit/cache_file.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace kiln::jit::cache_file {

namespace {

namespace fs = std::filesystem;

// FNV-1a streams, so hashing the sections one after another is hashing them
// concatenated: the checksum does not depend on where one section ends.
std::string checksum(const std::vector<std::string>& sections) {
  uint64_t h = fnv1a("");
  for (const std::string& s : sections) h = fnv1a(s, h);
  return hex(h);
}

std::string bytes_field(const std::string& section) { return section + "_bytes"; }

const std::string* last_field(const std::vector<Field>& fields, const std::string& name) {
  for (auto it = fields.rbegin(); it != fields.rend(); ++it)
    if (it->name == name) return &it->value;
  return nullptr;
}

std::vector<Field> parse_header(const std::string& head) {
  std::vector<Field> fields;
  std::istringstream in(head);
  for (std::string line; std::getline(in, line);) {
    size_t sp = line.find(' ');
    fields.push_back({line.substr(0, sp), sp == std::string::npos ? "" : line.substr(sp + 1)});
  }
  return fields;
}

}  // namespace

uint64_t fnv1a(const std::string& s, uint64_t h) {
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

const std::string* Contents::get(const Layout& layout, const std::string& name) const {
  if (const std::string* v = last_field(fields, name)) return v;
  for (size_t i = 0; i < layout.sections.size() && i < sections.size(); ++i)
    if (layout.sections[i] == name) return &sections[i];
  return nullptr;
}

std::string serialize(const Layout& layout, const std::vector<Field>& fields, const std::vector<std::string>& sections) {
  std::ostringstream out;
  out << layout.magic;
  for (const Field& f : fields) out << f.name << " " << f.value << "\n";
  for (size_t i = 0; i < layout.sections.size(); ++i)
    out << bytes_field(layout.sections[i]) << " " << (i < sections.size() ? sections[i].size() : 0) << "\n";
  out << "checksum " << checksum(sections) << "\n\n";
  for (const std::string& s : sections) out << s;
  return out.str();
}

bool parse(const Layout& layout, const std::string& bytes, Contents& out, std::string& why) {
  const size_t magic = layout.magic.size();
  if (bytes.compare(0, magic, layout.magic) != 0) return why = "not a kiln cache file (bad magic)", false;
  size_t end = bytes.find("\n\n", magic);
  if (end == std::string::npos) return why = "truncated header", false;
  out.fields = parse_header(bytes.substr(magic, end - magic));
  const std::string truncated = "truncated or padded (sizes do not match the header)";
  for (const std::string& name : layout.required) {
    const std::string* v = last_field(out.fields, name);
    if (!v || v->empty()) return why = truncated, false;
  }
  // A missing size reads as 0: the total below then catches the file.
  std::vector<size_t> sizes;
  size_t total = end + 2;
  for (const std::string& name : layout.sections) {
    const std::string* v = last_field(out.fields, bytes_field(name));
    sizes.push_back(v ? std::strtoull(v->c_str(), nullptr, 10) : 0);
    if (sizes.back() > bytes.size()) return why = truncated, false;  // also keeps the sum from wrapping
    total += sizes.back();
  }
  if (bytes.size() != total) return why = truncated, false;
  out.sections.clear();
  size_t at = end + 2;
  for (size_t n : sizes) {
    out.sections.push_back(bytes.substr(at, n));
    at += n;
  }
  const std::string* stored = last_field(out.fields, "checksum");
  if (!stored || *stored != checksum(out.sections)) return why = "corrupt (checksum mismatch)", false;
  return true;
}

std::string Mismatch::describe() const {
  if (!field->quote) return field->label;
  return field->label + ": stored " + stored + ", now " + field->value;
}

std::optional<Mismatch> first_mismatch(const Layout& layout, const std::vector<KeyField>& want, const Contents& have) {
  for (const KeyField& f : want) {
    const std::string* stored = have.get(layout, f.name);
    if (!stored || *stored != f.value) return Mismatch{&f, stored ? *stored : ""};
  }
  return std::nullopt;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string write_atomically(const std::string& dir, const std::string& path, const std::string& bytes) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return "cannot create " + dir + ": " + ec.message();
  // Unique per writer: two threads may store the same key at once.
  static std::atomic<uint64_t> writes{0};
  std::string tmp = path + ".tmp" + std::to_string(::getpid()) + "." + std::to_string(writes++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << bytes;
    if (!out) {
      fs::remove(tmp, ec);
      return "cannot write " + tmp;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) fs::remove(tmp, ec);
  return "";
}

}  // namespace kiln::jit::cache_file
