#!/usr/bin/env python3
"""Every module a target imports is declared in Package.swift as that target's own dependency
(a product of a package, or a target of this one): nothing reaches a target only through another.
Also: no declared target goes unimported, and the server side's closure holds no decoder.
Reads `swift package dump-package`; prints each problem, exits 1 if any."""
import json, os, re, subprocess, sys

package = json.loads(subprocess.check_output(["swift", "package", "dump-package"], text=True))
# Modules a product brings: the product's name and, for the products of the packages we use, the
# module names that differ from it.
product_modules = {
    "NIOCore": {"NIOCore"}, "NIOPosix": {"NIOPosix"}, "NIOHTTP1": {"NIOHTTP1"}, "NIOWebSocket": {"NIOWebSocket"},
    "NIOSSL": {"NIOSSL"}, "NIOTLS": {"NIOTLS"}, "NIOEmbedded": {"NIOEmbedded"}, "NIO": {"NIO"},
    "Logging": {"Logging"}, "DequeModule": {"DequeModule"}, "Crypto": {"Crypto"}, "X509": {"X509"},
    "SwiftASN1": {"SwiftASN1"}, "ArgumentParser": {"ArgumentParser"}, "Configuration": {"Configuration"},
    "Prometheus": {"Prometheus"}, "ServiceLifecycle": {"ServiceLifecycle", "UnixSignals"},
    "PostgresNIO": {"PostgresNIO"}, "PropertyBased": {"PropertyBased"},
}
system = {"Foundation", "FoundationEssentials", "Glibc", "Musl", "Darwin", "Dispatch", "Synchronization", "Testing",
          "XCTest", "_Concurrency", "Android", "WinSDK", "ucrt", "os", "Observation", "RegexBuilder", "FoundationNetworking"}
problems = 0
for target in package["targets"]:
    name = target["name"]
    if target["type"] == "system":
        continue
    path = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
    declared = set()
    for dep in target.get("dependencies", []):
        if "byName" in dep:
            declared.add(dep["byName"][0])
        elif "target" in dep:
            declared.add(dep["target"][0])
        elif "product" in dep:
            declared |= product_modules.get(dep["product"][0], {dep["product"][0]})
    imported = {}
    for root, _, files in os.walk(path):
        for f in files:
            if not f.endswith(".swift"):
                continue
            for line in open(os.path.join(root, f), encoding="utf-8"):
                m = re.match(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*import\s+(?:(?:struct|class|enum|func|var|protocol|typealias)\s+)?(\w+)", line)
                if m:
                    imported.setdefault(m.group(1), os.path.join(root, f))
    for module, where in sorted(imported.items()):
        if module in system or module in declared or module == name:
            continue
        print(f"{name}: imports {module} (in {where}) without declaring it")
        problems += 1
    # A dependency declared and never imported links what the target does not need.
    for module in sorted(d for d in declared if d not in imported and d in {t["name"] for t in package["targets"]}):
        print(f"{name}: declares {module} and never imports it")
        problems += 1

# The server side links no decoder: its targets' dependency closure holds no FFmpeg, SDL, libass,
# player or stories module, so `tandem serve`'s parts build without their headers.
server_side = ["PartyServer", "PartyService", "PartyCluster", "SyncplayGateway", "PortMapping", "FuzzByteRange", "FuzzWebPath"]
decoders = {"CFFmpeg", "CSDL2", "CLibass", "FFmpegKit", "PlayerCore", "StoryKit", "SubtitleKit", "TandemWindow"}
by_name = {t["name"]: t for t in package["targets"]}
def closure(name, seen):
    for dep in by_name[name].get("dependencies", []):
        d = (dep.get("byName") or dep.get("target") or [None])[0]
        if d in by_name and d not in seen:
            seen.add(d)
            closure(d, seen)
    return seen
for name in server_side:
    bad = sorted(closure(name, set()) & decoders)
    if bad:
        print(f"{name} (server side) depends on {', '.join(bad)}")
        problems += 1
sys.exit(1 if problems else 0)
