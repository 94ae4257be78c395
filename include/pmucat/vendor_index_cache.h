// A per-user cache of compiled vendor event indexes: `--events-dir` given a JSON tree
// (a newer kernel's pmu-events/arch, say) costs a JSON parse of the whole model on every run; the
// cache compiles what a run reads once and hands later runs an index root instead, so they take
// the compiled index's fast path (docs/catalog.md, "The index cache").
//
// Layout of the cache directory (`$XDG_CACHE_HOME/pmucat/vendor-index`):
//   <L>.stamp   one per (tree, architecture, model, rules): L is a hash of that identity. Text:
//               the identity, the entry it vouches for, and the fingerprint of every file and
//               directory the entry was compiled from (relative path, device, inode, size,
//               mtime and ctime in ns), then a digest line of all the lines before it.
//               Replaced atomically (a temporary file renamed over it).
//   <K>/        an index root (vendor_index.h) holding the model's file and the system tables of
//               the architecture and of `test`; K is a hash of the identity and the fingerprint,
//               so an entry is never rewritten: a changed tree gets a new one. Built in a
//               temporary sibling and renamed into place; of two racing builders, the second
//               rename fails and that process uses the first's entry.
// A lookup reads the stamp and stat()s the files it lists (no directory is listed, no JSON read):
// any difference, a missing or unreadable stamp, or an entry that does not open (each file's
// digest is checked) is a miss, and the entry is compiled again. Only what is the effective
// user's alone is used: the cache directory, entries, files and stamps must be owned by them
// and writable by no one else; anything else is never read, replaced or removed. Entries keep the
// JSON files' paths as the tree's caller gave them, so a run over the cache prints what a run over
// the JSON prints.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/expected.h"
#include "pmucat/perf_profile.h"
#include "pmucat/vendor_index.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The rules an entry was compiled with are part of every key: pmucat's version, the index format
// (kVendorIndexVersion) and a digest of the sources of the JSON reader and the index writer, taken
// when the build is configured (src/pmu_events_index/CMakeLists.txt), so that no entry compiled by
// other rules is taken for this build's.

// The cache directory: `<xdg_cache_home>/pmucat/vendor-index` when `xdg_cache_home` is an
// absolute path (the XDG rule: a relative one is ignored), else `<home>/.cache/pmucat/vendor-index`
// when `home` is absolute; nullopt otherwise. Pure: the caller passes $XDG_CACHE_HOME and $HOME.
std::optional<std::filesystem::path> vendor_index_cache_dir(std::string_view xdg_cache_home,
                                                            std::string_view home);

class VendorIndexCache {
 public:
  struct Options {
    // An input modified this recently (mtime or ctime) may change again within the file
    // system's timestamp granularity without its stamp changing ("racy" files, as git calls
    // them): such a tree is compiled for this run only, never published. Tests set zero.
    std::chrono::nanoseconds settle = std::chrono::seconds(2);
  };

  explicit VendorIndexCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
  VendorIndexCache(std::filesystem::path dir, Options options)
      : dir_(std::move(dir)), options_(options) {}

  const std::filesystem::path& dir() const { return dir_; }

  // An index root compiled from the JSON tree `json_root` holding the model `arch`/`directory`
  // (a mapfile Directory, as choose_vendor_model() chose it; empty: no model, the system tables
  // only) and the system tables of `arch` and of `test`: open_vendor_index_model(root, arch,
  // directory) and open_vendor_index_sys(root, arch or "test") then give what load_vendor_model()
  // and load_vendor_sys_tables() give for the tree, locations included. `rules` names the perf
  // release whose JSON → event rules the tables follow; it is part of the key.
  // Fails (vendor-index-unreadable) when the cache cannot be used: no directory can be made or
  // written there, the tree changes under the compile, a path the stamp cannot hold. The caller
  // then reads the JSON itself; nothing is left behind but temporaries of a killed process.
  struct Entry {
    std::filesystem::path root;  // the index root (a directory of the cache)
    bool compiled = false;       // this call compiled it (a miss); false: a stamp hit
    // The model's file, opened and checked (what open_vendor_index_model() would map again);
    // nullopt when no model was asked for.
    std::optional<VendorIndexModel> model;
    // Why an earlier entry or stamp was passed over (notes: damaged, not this user's), when one
    // was; the entry above is then a fresh compile.
    std::vector<Diagnostic> notes;
  };
  Expected<Entry> open(const std::filesystem::path& json_root, std::string_view arch,
                       std::string_view directory, PerfRelease rules = kPmucatBaseRelease) const;

 private:
  std::filesystem::path dir_;
  Options options_;
};

// Compiles the JSON tree `json_root` into an index at `index_root` as write_vendor_index() does
// (locations relative to the tree: an index to ship), but into a temporary sibling directory
// renamed into place: a reader never sees half an index, and an interrupted compile leaves the
// old one. `index_root` may be missing, an empty directory or an earlier index (replaced);
// anything else — a symlink, a FIFO, a file, a directory that is not an index — is refused
// (vendor-index-unreadable), never replaced.
Expected<VendorIndexSummary> compile_vendor_index(const std::filesystem::path& json_root,
                                                  const std::filesystem::path& index_root,
                                                  PerfRelease rules = kPmucatBaseRelease);

PMUCAT_END_NAMESPACE
