# Type stubs of the compiled module pmucat._core (python/src/module.cpp).
#
# Text the library returns (names, paths, descriptions, diagnostics, perf.data strings) is str:
# UTF-8, with every byte that is not valid UTF-8 as a lone surrogate U+DC80..U+DCFF
# ("surrogateescape", as os.fsdecode): os.fsencode(name) gives the bytes back. Text arguments take
# such a str, or bytes. Paths are str, bytes or os.PathLike; a NUL in one raises pmucat.Error.
# Every wrong argument raises pmucat.Error (id api-invalid-argument) naming it.
import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Union

_Text = Union[str, bytes]
_Path = Union[str, bytes, os.PathLike[str], os.PathLike[bytes]]

from ._types import Decoded, Event, Format, Record

__version__: str

class EncodedEvent:
    """One perf_event_attr an event spec stands for."""
    @property
    def spec(self) -> str: ...
    @property
    def pmu(self) -> str: ...
    @property
    def event(self) -> Optional[str]: ...
    @property
    def perf_string(self) -> str: ...
    @property
    def group_leader(self) -> Optional[int]: ...
    @property
    def group_name(self) -> str: ...
    @property
    def settings(self) -> Dict[str, Any]: ...
    @property
    def warnings(self) -> List[Dict[str, Any]]: ...
    @property
    def attr(self) -> Dict[str, int]: ...
    def to_dict(self) -> Dict[str, Any]: ...
    def to_bytes(self, size: int = 136) -> bytes: ...
    # Every perf_event_attr field, by its uapi name.
    type: int
    size: int
    config: int
    config1: int
    config2: int
    config3: int
    config4: int
    sample_period: int
    sample_freq: int
    sample_type: int
    read_format: int
    disabled: bool
    inherit: bool
    pinned: bool
    exclusive: bool
    exclude_user: bool
    exclude_kernel: bool
    exclude_hv: bool
    exclude_idle: bool
    mmap: bool
    comm: bool
    freq: bool
    inherit_stat: bool
    enable_on_exec: bool
    task: bool
    watermark: bool
    precise_ip: int
    mmap_data: bool
    sample_id_all: bool
    exclude_host: bool
    exclude_guest: bool
    exclude_callchain_kernel: bool
    exclude_callchain_user: bool
    mmap2: bool
    comm_exec: bool
    use_clockid: bool
    context_switch: bool
    write_backward: bool
    namespaces: bool
    ksymbol: bool
    bpf_event: bool
    aux_output: bool
    cgroup: bool
    text_poke: bool
    build_id: bool
    inherit_thread: bool
    remove_on_exec: bool
    sigtrap: bool
    wakeup_events: int
    wakeup_watermark: int
    bp_type: int
    branch_sample_type: int
    sample_regs_user: int
    sample_stack_user: int
    clockid: int
    sample_regs_intr: int
    aux_watermark: int
    sample_max_stack: int
    aux_sample_size: int
    sig_data: int

class Pmu:
    """One PMU of a catalog."""
    @property
    def name(self) -> str: ...
    @property
    def type(self) -> Optional[int]: ...
    @property
    def kind(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def cpus(self) -> Optional[List[int]]: ...
    @property
    def formats(self) -> List[Format]: ...
    @property
    def events(self) -> List[Event]: ...
    def event(self, name: _Text) -> Optional[Event]: ...
    @property
    def diagnostics(self) -> List[Dict[str, Any]]: ...

class Catalog:
    """A sysfs PMU catalog, read lazily and cached; safe to share between threads."""
    @staticmethod
    def open(sysfs: Optional[_Path] = None, events_dir: Optional[_Path] = None,
             cpuid: Optional[_Text] = None) -> Catalog: ...
    @property
    def devices_dir(self) -> str: ...
    def pmus(self) -> List[Pmu]: ...
    def pmu(self, name: _Text) -> Pmu: ...
    def encode(self, spec: _Text, *, semantics: str = "pmucat", tool: str = "record",
               default_pmu: Optional[_Text] = None,
               tracefs: Optional[_Path] = None,
               extended_type: str = "supported") -> List[EncodedEvent]: ...
    def decode(self, pmu: _Text, *, config: int = 0, config1: int = 0, config2: int = 0,
               config3: int = 0, config4: int = 0) -> Decoded: ...
    def count(self, spec: _Text, *, command: Optional[Sequence[_Text]] = None,
              pid: Optional[int] = None, cpus: Optional[_Text] = None) -> CountSession: ...
    def diagnostics(self) -> List[Dict[str, Any]]: ...

class CountSession:
    """Events opened for counting: start(), wait() for a command, read()."""
    def start(self) -> None: ...
    def wait(self) -> int: ...
    def read(self) -> List[Dict[str, Any]]: ...

class _CheckReport:
    def findings(self) -> List[Dict[str, Any]]: ...
    def render_text(self) -> str: ...
    def render_ktap(self) -> str: ...
    def render_json(self) -> str: ...
    def render_junit(self) -> str: ...
    def render_kcidb(self, origin: str, build_id: str, run_id: str) -> str: ...
    def exit_status(self) -> int: ...

def _check(tree: Union[Catalog, _Path, None], events_dir: Optional[_Path],
           cpuid: Optional[_Text], pmus: Iterable[_Text], enable: Iterable[_Text],
           disable: Iterable[_Text], werror: bool, jobs: int) -> _CheckReport: ...

class _RecordIterator(Iterator[Record]):
    def __iter__(self) -> _RecordIterator: ...
    def __next__(self) -> Record: ...
    def close(self) -> None: ...

class _PerfData:
    @property
    def mode(self) -> str: ...
    @property
    def other_endian(self) -> bool: ...
    @property
    def record_count(self) -> int: ...
    def attrs(self) -> List[Dict[str, Any]]: ...
    def features(self) -> Dict[str, Any]: ...
    def records(self) -> _RecordIterator: ...
    def close(self) -> None: ...

def _read_perf_data(path: _Path) -> _PerfData: ...
def _read_perf_data_whole(path: _Path) -> List[Record]: ...

def _bench_encode(catalog: Catalog, spec: _Text, n: int) -> float: ...
