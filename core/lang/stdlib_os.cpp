// _os: the operating-system calls under prelude/os.py, os/path.py and io.py:
// the environment, the working directory, directory listing and creation,
// file removal and renaming, what a path names, and whole-file text reads
// and writes (Kiln's open() buffers a file in the script). Failures raise
// CPython's OSError subclasses with its "[Errno N] ...: 'path'" messages.
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <algorithm>
#include <ctime>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/lang/builtins.h"
#include "core/lang/interp.h"
#include "core/lang/objops.h"

extern char** environ;

namespace kiln::lang {

namespace {

[[noreturn]] void raise_os_error(Interp& in, int err, const std::string& path) {
  const char* cls = err == ENOENT    ? "FileNotFoundError"
                    : err == EEXIST  ? "FileExistsError"
                    : err == EACCES || err == EPERM ? "PermissionError"
                    : err == ENOTDIR ? "NotADirectoryError"
                    : err == EISDIR  ? "IsADirectoryError"
                                     : "OSError";
  raise_exception(in, find_builtin_class(in, cls),
                  {Obj::from_int(err), make_str(std::strerror(err)), make_str(path)});
}

const std::string& path_arg(const CallArgs& a, size_t i) { return str_of(a.pos[i], "path"); }

Obj os_getcwd(Interp& in, const CallArgs& a) {
  a.check("getcwd", 0, 0);
  std::string buf(4096, '\0');
  if (!::getcwd(buf.data(), buf.size())) raise_os_error(in, errno, ".");
  return make_str(buf.c_str());
}

Obj os_environ(Interp&, const CallArgs&) {
  Obj d = make<DictObj>();
  for (char** e = environ; e && *e; ++e) {
    std::string kv = *e;
    size_t eq = kv.find('=');
    if (eq != std::string::npos) d.as<DictObj>()->map.set(make_str(kv.substr(0, eq)), make_str(kv.substr(eq + 1)));
  }
  return d;
}

Obj os_putenv(Interp&, const CallArgs& a) {
  a.check("putenv", 2, 2);
  ::setenv(str_of(a.pos[0], "key").c_str(), str_of(a.pos[1], "value").c_str(), 1);
  return Obj();
}

Obj os_unsetenv(Interp&, const CallArgs& a) {
  a.check("unsetenv", 1, 1);
  ::unsetenv(str_of(a.pos[0], "key").c_str());
  return Obj();
}

// 0: nothing there, 1: a regular file (or other non-directory), 2: a directory.
Obj os_kind(Interp&, const CallArgs& a) {
  a.check("kind", 1, 1);
  struct stat st;
  if (::stat(path_arg(a, 0).c_str(), &st) != 0) return Obj::from_int(0);
  return Obj::from_int(S_ISDIR(st.st_mode) ? 2 : 1);
}

Obj os_getsize(Interp& in, const CallArgs& a) {
  a.check("getsize", 1, 1);
  struct stat st;
  if (::stat(path_arg(a, 0).c_str(), &st) != 0) raise_os_error(in, errno, path_arg(a, 0));
  return Obj::from_int(int64_t(st.st_size));
}

Obj os_listdir(Interp& in, const CallArgs& a) {
  a.check("listdir", 1, 1);
  const std::string& path = path_arg(a, 0);
  DIR* d = ::opendir(path.c_str());
  if (!d) raise_os_error(in, errno, path);
  std::vector<Obj> names;
  while (dirent* e = ::readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(make_str(n));
  }
  ::closedir(d);
  return make_list(std::move(names));
}

Obj os_mkdir(Interp& in, const CallArgs& a) {
  a.check("mkdir", 1, 2);
  const std::string& path = path_arg(a, 0);
  int mode = a.pos.size() > 1 ? int(a.pos[1].as_int()) : 0777;
  if (::mkdir(path.c_str(), mode_t(mode)) != 0) raise_os_error(in, errno, path);
  return Obj();
}

template <int (*F)(const char*)>
Obj os_path_call(Interp& in, const CallArgs& a) {
  a.check("os function", 1, 1);
  if (F(path_arg(a, 0).c_str()) != 0) raise_os_error(in, errno, path_arg(a, 0));
  return Obj();
}

Obj os_rename(Interp& in, const CallArgs& a) {
  a.check("rename", 2, 2);
  if (::rename(path_arg(a, 0).c_str(), path_arg(a, 1).c_str()) != 0) raise_os_error(in, errno, path_arg(a, 0));
  return Obj();
}

// The whole file's contents (open() for reading, text or binary).
std::string read_file(Interp& in, const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) raise_os_error(in, EISDIR, path);
  std::ifstream f(path, std::ios::binary);
  if (!f) raise_os_error(in, errno ? errno : ENOENT, path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Creates or truncates the file unless appending, then appends `data`.
void write_file(Interp& in, const std::string& path, const std::string& data, bool append) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) raise_os_error(in, EISDIR, path);
  std::ofstream f(path, std::ios::binary | (append ? std::ios::app : std::ios::trunc));
  if (!f) raise_os_error(in, errno ? errno : ENOENT, path);
  f.write(data.data(), std::streamsize(data.size()));
}

Obj os_read_text(Interp& in, const CallArgs& a) {
  a.check("read_text", 1, 1);
  return make_str(read_file(in, path_arg(a, 0)));
}

Obj os_read_bytes(Interp& in, const CallArgs& a) {
  a.check("read_bytes", 1, 1);
  return make_bytes(read_file(in, path_arg(a, 0)));
}

// write_text(path, text, append)
Obj os_write_text(Interp& in, const CallArgs& a) {
  a.check("write_text", 3, 3);
  write_file(in, path_arg(a, 0), str_of(a.pos[1], "text"), truthy(in, a.pos[2]));
  return Obj();
}

// write_bytes(path, data, append)
Obj os_write_bytes(Interp& in, const CallArgs& a) {
  a.check("write_bytes", 3, 3);
  const BytesObj* b = a.pos[1].as<BytesObj>();
  KILN_CHECK(b, Type, "write_bytes: data must be bytes");
  write_file(in, path_arg(a, 0), b->value, truthy(in, a.pos[2]));
  return Obj();
}

Obj os_getpid(Interp&, const CallArgs&) { return Obj::from_int(int64_t(::getpid())); }

Obj os_cpu_count(Interp&, const CallArgs&) {
  long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? Obj::from_int(int64_t(n)) : Obj();
}

// strftime(format, t): t (seconds since the epoch) in local time, formatted by
// C's strftime as CPython's time.strftime formats it (logging's asctime).
Obj os_strftime(Interp&, const CallArgs& a) {
  a.check("strftime", 2, 2);
  const std::string& fmt = str_of(a.pos[0], "format");
  time_t secs = time_t(a.pos[1].as_number());
  struct tm tm;
  ::localtime_r(&secs, &tm);
  std::string buf(256 + fmt.size() * 8, '\0');
  size_t n = fmt.empty() ? 0 : std::strftime(buf.data(), buf.size(), fmt.c_str(), &tm);
  return make_str(buf.substr(0, n));
}

}  // namespace

Obj make_os_core() {
  Obj m = make<ModuleObj>("_os");
  OrderedMap& at = m.as<ModuleObj>()->attrs;
  auto fn = [&](const char* name, NativeFn f) { at.set(std::string_view(name), make_builtin(name, f)); };
  fn("getcwd", os_getcwd);
  fn("environ", os_environ);
  fn("putenv", os_putenv);
  fn("unsetenv", os_unsetenv);
  fn("kind", os_kind);
  fn("getsize", os_getsize);
  fn("listdir", os_listdir);
  fn("mkdir", os_mkdir);
  fn("rmdir", os_path_call<::rmdir>);
  fn("remove", os_path_call<::unlink>);
  fn("chdir", os_path_call<::chdir>);
  fn("rename", os_rename);
  fn("read_text", os_read_text);
  fn("write_text", os_write_text);
  fn("read_bytes", os_read_bytes);
  fn("write_bytes", os_write_bytes);
  fn("getpid", os_getpid);
  fn("cpu_count", os_cpu_count);
  fn("strftime", os_strftime);
  return m;
}

}  // namespace kiln::lang
