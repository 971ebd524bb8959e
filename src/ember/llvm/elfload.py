"""A loader for the object files the native tier makes: ELF64 x86-64 relocatable code,
linked into this process without LLVM (so a cache hit never imports llvmlite).

    image = load(obj)            # Unloadable if the object holds anything not below
    image.address("symbol")      # a function's address

What it links is exactly what LLVM emits for ember's modules (small code model, PIC):
allocated sections (code and constants in one read+execute mapping, writable data in
read+write pages after it), relocations R_X86_64_64, PC32, PLT32, PC64 and the GOTPCREL
family. A call to a C library function goes through a stub beside the code
(`movabs $addr, %rax; jmp *%rax`), a GOT reference through a slot beside it; symbols come
from the C library and libm, as MCJIT's linker finds them. Unwind tables are not loaded
(native code never unwinds: errors return a status). Anything else — another machine,
another relocation, an unknown symbol — raises Unloadable, and the caller links the object
with MCJIT instead.
"""

from __future__ import annotations

import ctypes
import platform
import struct
import sys

PAGE = 4096
STUB = b"\x48\xb8" + b"\0" * 8 + b"\xff\xe0" + b"\xcc" * 4  # movabs rax, imm64; jmp rax
SHF_WRITE, SHF_ALLOC = 0x1, 0x2
SHT_RELA, SHT_NOBITS, SHT_REL = 4, 8, 9
R_64, R_PC32, R_PLT32, R_32, R_32S, R_PC64 = 1, 2, 4, 10, 11, 24
R_GOTPCREL = {9, 41, 42}


class Unloadable(Exception):
    """The object is not one this loader links (the caller uses MCJIT)."""


def supported() -> bool:
    return sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


class _Elf:
    """The parts of an ELF64 relocatable object the loader reads."""

    def __init__(self, obj: bytes):
        if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
            raise Unloadable("not a little-endian ELF64 object")
        (e_type, machine, _, _, _, shoff, _, _, _, _, shentsize, shnum,
         shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", obj, 16)
        if e_type != 1 or machine != 62:
            raise Unloadable("not an x86-64 relocatable object")
        self.obj = obj
        self.sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + i * shentsize)
                         for i in range(shnum)]
        self.names = [self._str(shstrndx, s[0]) for s in self.sections]

    def _str(self, index: int, off: int) -> str:
        base = self.sections[index][4] + off
        return self.obj[base:self.obj.index(b"\0", base)].decode()

    def data(self, i: int) -> bytes:
        s = self.sections[i]
        return self.obj[s[4]:s[4] + s[5]]

    def symbols(self) -> list:
        """(name, shndx, value) per symbol-table entry."""
        for i, s in enumerate(self.sections):
            if s[1] == 2:  # SHT_SYMTAB
                raw = self.data(i)
                return [(self._str(s[6], n), shndx, value)
                        for n, _, _, shndx, value, _ in struct.iter_unpack("<IBBHQQ", raw)]
        return []

    def relocations(self):
        """(target section, offset, type, symbol index, addend) of every RELA entry."""
        for i, s in enumerate(self.sections):
            if s[1] == SHT_REL:
                raise Unloadable("REL relocations")
            if s[1] == SHT_RELA:
                for off, info, addend in struct.iter_unpack("<QQq", self.data(i)):
                    yield s[7], off, info & 0xFFFFFFFF, info >> 32, addend


def _loaded(elf: _Elf) -> list:
    """Indices of the sections to place: allocated, except the unwind tables."""
    return [i for i, s in enumerate(elf.sections)
            if s[2] & SHF_ALLOC and s[5] and not elf.names[i].startswith(".eh_frame")]


def _align(n: int, a: int) -> int:
    return (n + a - 1) // a * a if a > 1 else n


class _Libc:
    lib = None

    @classmethod
    def get(cls):
        if cls.lib is None:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.mmap.restype = ctypes.c_void_p
            libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                                  ctypes.c_int, ctypes.c_long]
            libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
            libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
            cls.lib = (libc,)
        return cls.lib

    m = None

    @classmethod
    def libm(cls):
        """libm, where the process's own symbols lack a function (find_library runs a
        subprocess: only then)."""
        if cls.m is None:
            try:
                cls.m = ctypes.CDLL("libm.so.6")
            except OSError:
                from ctypes.util import find_library
                path = find_library("m")
                cls.m = ctypes.CDLL(path) if path else cls.get()[0]
        return cls.m


def external(name: str) -> int:
    for lib in (_Libc.get()[0], None):
        try:
            return ctypes.cast(getattr(lib or _Libc.libm(), name), ctypes.c_void_p).value
        except AttributeError:
            continue
    raise Unloadable(f"unknown symbol {name}")


class Image:
    """An object file placed in executable memory of this process."""

    def __init__(self, obj: bytes):
        if not supported():
            raise Unloadable(f"no loader for {sys.platform}/{platform.machine()}")
        try:
            elf = _Elf(obj)
            syms = elf.symbols()
            relocs = list(elf.relocations())
            for r in relocs:
                syms[r[3]]  # noqa: B018  (every relocation names a symbol there is)
        except (struct.error, ValueError, IndexError, UnicodeDecodeError) as e:
            raise Unloadable(f"a malformed object ({type(e).__name__})") from None
        code, data = self._layout(elf)
        externs = sorted({syms[r[3]][0] for r in relocs if syms[r[3]][1] == 0 and r[3]})
        got_syms = sorted({r[3] for r in relocs if r[2] in R_GOTPCREL})
        stub_at = _align(self.rx_end, 16)
        self.stubs = {n: stub_at + 16 * k for k, n in enumerate(externs)}
        got_at = _align(stub_at + 16 * len(externs), 8)
        self.got = {k: got_at + 8 * j for j, k in enumerate(got_syms)}
        rw_at = _align(got_at + 8 * len(got_syms), PAGE)
        self.size = _align(rw_at + self.rw_end, PAGE)
        self.rx_size = rw_at
        self._munmap = _Libc.get()[0].munmap  # (kept: __del__ may run at interpreter exit)
        self.base = self._map(self.size)
        try:
            self._place(elf, syms, relocs, code, data, externs, rw_at)
        except BaseException:
            base, self.base = self.base, None  # (so __del__ does not unmap it again)
            self._munmap(base, self.size)
            raise

    def _layout(self, elf):
        """Offsets of each placed section: read-only ones first, writable ones in their
        own pages after the stubs (offsets relative to that area)."""
        code, data, at, rw = {}, {}, 0, 0
        for i in _loaded(elf):
            s = elf.sections[i]
            if s[2] & SHF_WRITE:
                rw = _align(rw, s[8])
                data[i] = rw
                rw += s[5]
            else:
                at = _align(at, s[8])
                code[i] = at
                at += s[5]
        self.rx_end, self.rw_end = at, rw
        return code, data

    @staticmethod
    def _map(size: int) -> int:
        libc = _Libc.get()[0]
        addr = libc.mmap(None, size, 3, 0x22, -1, 0)  # RW, MAP_PRIVATE | MAP_ANONYMOUS
        if addr in (None, ctypes.c_void_p(-1).value):
            raise Unloadable("mmap failed")
        return addr

    def _place(self, elf, syms, relocs, code, data, externs, rw_at):
        where = dict(code)
        where.update({i: rw_at + off for i, off in data.items()})
        image = bytearray(self.size)
        for i, off in where.items():
            if elf.sections[i][1] != SHT_NOBITS:
                raw = elf.data(i)
                image[off:off + len(raw)] = raw
        for n in externs:
            addr = external(n)
            stub = self.stubs[n]
            image[stub:stub + 16] = STUB
            struct.pack_into("<Q", image, stub + 2, addr)
        for k, slot in self.got.items():
            struct.pack_into("<Q", image, slot, self._symbol(where, syms, k))
        for target, off, rtype, sym, addend in relocs:
            if target in where:
                self._relocate(image, where, syms, where[target] + off, rtype, sym, addend)
        self.symbols = {name: self.base + where[shndx] + value for name, shndx, value in syms
                        if name and shndx in where}
        ctypes.memmove(self.base, bytes(image), self.size)
        if _Libc.get()[0].mprotect(self.base, self.rx_size, 5) != 0:  # read + execute
            raise Unloadable("mprotect failed")

    def _symbol(self, where, syms, k) -> int:
        name, shndx, value = syms[k]
        if shndx == 0:
            return external(name)
        if shndx not in where:
            raise Unloadable(f"a reference to section {shndx}, which is not loaded")
        return self.base + where[shndx] + value

    def _relocate(self, image, where, syms, at, rtype, sym, addend):
        name, shndx, value = syms[sym]
        p = self.base + at
        if rtype in R_GOTPCREL:
            return _put32(image, at, self.base + self.got[sym] + addend - p)
        if shndx == 0:
            if rtype == R_PLT32:
                return _put32(image, at, self.base + self.stubs[name] + addend - p)
            if rtype == R_64:
                return struct.pack_into("<Q", image, at, (external(name) + addend) % 2 ** 64)
            raise Unloadable(f"relocation {rtype} against {name}")
        s = self._symbol(where, syms, sym)
        if rtype in (R_PC32, R_PLT32):
            return _put32(image, at, s + addend - p)
        if rtype == R_64:
            return struct.pack_into("<Q", image, at, (s + addend) % 2 ** 64)
        if rtype == R_PC64:
            return struct.pack_into("<q", image, at, s + addend - p)
        raise Unloadable(f"relocation type {rtype}")

    def address(self, symbol: str) -> int:
        addr = self.symbols.get(symbol)
        if not addr:
            raise RuntimeError(f"native symbol {symbol} is missing from the object code")
        return addr

    def __del__(self):
        if getattr(self, "base", None):
            self._munmap(self.base, self.size)
            self.base = None


def _put32(image, at: int, value: int) -> None:
    if not -2 ** 31 <= value < 2 ** 31:
        raise Unloadable("a 32-bit relocation out of range")
    struct.pack_into("<i", image, at, value)


def load(obj: bytes) -> Image:
    return Image(obj)
