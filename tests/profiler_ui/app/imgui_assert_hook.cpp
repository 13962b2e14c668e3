// Routes the assertions compiled into Debian's prebuilt libimgui.a (plain
// assert(), so glibc's __assert_fail) to kiln-inspect's IM_ASSERT hook, which
// the smoke tests make throw. This file must not include <assert.h>: it
// replaces glibc's definition for the test binary only.
#include "profiler_ui/app/imconfig_kiln.h"

extern "C" [[noreturn]] void __assert_fail(const char* expr, const char* file, unsigned line, const char*) {
  kiln::inspect::ui::imgui_assert_failed(expr, file, static_cast<int>(line));
}
