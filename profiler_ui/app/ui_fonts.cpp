// Font atlas building (see ui_fonts.h).
#include "profiler_ui/app/ui_fonts.h"

#include <algorithm>
#include <filesystem>

namespace kiln::inspect::ui {
namespace {

ImFont* add_font(const char* path, float pixels) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return nullptr;
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, pixels);
}

}  // namespace

void build_fonts(float pixels) {
  pixels = std::clamp(pixels, 8.0f, 48.0f);
  ImFontAtlas* atlas = ImGui::GetIO().Fonts;
  atlas->Clear();
  ImFont* ui = add_font("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", pixels);
  if (!ui) {
    ImFontConfig cfg;
    cfg.SizePixels = pixels;
    ui = atlas->AddFontDefault(&cfg);
  }
  // Fonts[1] is the monospace font when there is one (see mono_font()).
  add_font("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", pixels);
  atlas->Build();
}

ImFont* mono_font() {
  const ImVector<ImFont*>& fonts = ImGui::GetIO().Fonts->Fonts;
  return fonts.Size > 1 ? fonts[1] : ImGui::GetFont();
}

}  // namespace kiln::inspect::ui
