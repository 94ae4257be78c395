// fmt's compiled part (what libfmt.so exports) built into the tools themselves. Debian ships no
// libfmt.a, and libfmt.so pulls in libstdc++.so: resolving their symbols at every start costs
// a tool more than encoding an event does. With this object linked first, the tools need
// neither shared library (see PMUCAT_STATIC_RUNTIME in cli/CMakeLists.txt).
#include <fmt/format-inl.h>

FMT_BEGIN_NAMESPACE
namespace detail {
// format.h declares these `extern template` (instantiated in the library): instantiate them here.
template FMT_API auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template FMT_API auto thousands_sep_impl<wchar_t>(locale_ref) -> thousands_sep_result<wchar_t>;
template FMT_API auto decimal_point_impl(locale_ref) -> char;
template FMT_API auto decimal_point_impl(locale_ref) -> wchar_t;
}  // namespace detail
FMT_END_NAMESPACE
