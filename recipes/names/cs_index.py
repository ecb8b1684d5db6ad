"""C#: the base class library's namespaces by type name and extension method,
asked of the installed Mono (a small C# probe, compiled by its mcs and run by
its mono, reflecting over the assemblies mcs references by default), not a
hand-kept list; kept in the cache folder per Mono.

`types["List"]` is ["System.Collections.Generic"], `extensions["Where"]`
["System.Linq"]: a name of one namespace is a `using` to add; of several
(Timer: System.Threading, System.Timers), candidates."""

from __future__ import annotations

import json
import os
import shutil
import tempfile

from . import cache, probe

PREFIX = "csnames"
TIMEOUT = 60.0
# the assemblies mcs references unless told otherwise (mcs's own list, 4.5 profile)
_DEFAULT_REFERENCES = ("mscorlib.dll", "System.dll", "System.Core.dll", "System.Xml.dll")
_PROBE = r"""
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.CompilerServices;
public static class P {
    static string Q(string s) { return "\"" + s.Replace("\\", "\\\\").Replace("\"", "\\\"") + "\""; }
    public static void Main(string[] args) {
        var types = new SortedDictionary<string, SortedSet<string>>();
        var ext = new SortedDictionary<string, SortedSet<string>>();
        foreach (var path in args) {
            Type[] all;
            try { all = Assembly.LoadFrom(path).GetExportedTypes(); } catch (Exception) { continue; }
            foreach (var t in all) {
                if (t.IsNested || string.IsNullOrEmpty(t.Namespace)) continue;
                var name = t.Name.Split('`')[0];
                if (!types.ContainsKey(name)) types[name] = new SortedSet<string>();
                types[name].Add(t.Namespace);
                if (!(t.IsAbstract && t.IsSealed)) continue;
                foreach (var m in t.GetMethods(BindingFlags.Public | BindingFlags.Static)) {
                    if (!m.IsDefined(typeof(ExtensionAttribute), false)) continue;
                    if (!ext.ContainsKey(m.Name)) ext[m.Name] = new SortedSet<string>();
                    ext[m.Name].Add(t.Namespace);
                }
            }
        }
        Console.Write("{\"types\":{");
        W(types);
        Console.Write("},\"extensions\":{");
        W(ext);
        Console.Write("}}");
    }
    static void W(SortedDictionary<string, SortedSet<string>> d) {
        var first = true;
        foreach (var kv in d) {
            Console.Write((first ? "" : ",") + Q(kv.Key) + ":[" + string.Join(",", Q2(kv.Value)) + "]");
            first = false;
        }
    }
    static IEnumerable<string> Q2(IEnumerable<string> xs) { foreach (var x in xs) yield return Q(x); }
}
"""
_MEMO: dict[str, dict[str, dict[str, list[str]]]] = {}


def mono_lib() -> str | None:
    """Mono's 4.5 profile folder (its mscorlib.dll and mcs.exe), from `mcs` on PATH."""
    mcs = shutil.which("mcs")
    if mcs is None or shutil.which("mono") is None:
        return None
    for base in (os.path.dirname(os.path.dirname(os.path.realpath(mcs))), "/usr"):
        lib = os.path.join(base, "lib", "mono", "4.5")
        if os.path.isfile(os.path.join(lib, "mscorlib.dll")):
            return lib
    return None


def _build(lib: str) -> dict[str, dict[str, list[str]]]:
    mcs, mono = shutil.which("mcs"), shutil.which("mono")
    if mcs is None or mono is None:
        return {}
    with tempfile.TemporaryDirectory(prefix="faultlens-probe-") as folder:
        src, exe = os.path.join(folder, "probe.cs"), os.path.join(folder, "probe.exe")
        with open(src, "w", encoding="utf-8") as fh:
            fh.write(_PROBE)
        if probe.run([mcs, "-nologo", f"-out:{exe}", src], TIMEOUT) is None:
            return {}
        refs = [os.path.join(lib, r) for r in _DEFAULT_REFERENCES]
        out = probe.run([mono, exe, *refs], TIMEOUT)
    try:
        found = json.loads(out) if out else {}
    except ValueError:
        return {}
    if not isinstance(found, dict):
        return {}
    return {
        k: {str(n): [str(x) for x in v] for n, v in found.get(k, {}).items()}
        for k in ("types", "extensions")
    }


def index() -> dict[str, dict[str, list[str]]]:
    lib = mono_lib()
    if lib is None:
        return {}
    name = cache.key(PREFIX, cache.file_identity(os.path.join(lib, "mscorlib.dll")))
    found = _MEMO.get(name)
    if found is None:
        data = cache.load(name)
        if data is not None and isinstance(data.get("types"), dict):
            found = {"types": data["types"], "extensions": data.get("extensions") or {}}
        else:
            found = _build(lib)
            if found.get("types"):
                cache.store(name, PREFIX, found, [])
        _MEMO[name] = found
    return found


def namespaces_of_type(name: str) -> list[str]:
    return list(index().get("types", {}).get(name, []))


def namespaces_of_extension(name: str) -> list[str]:
    return list(index().get("extensions", {}).get(name, []))
