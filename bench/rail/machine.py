"""The machine a run was made on, and what its hardware can move.

Recorded with every run: CPU model and cores, memory, OS, GDAL version,
VSGPU commit, load average, and each NVIDIA GPU (name, driver, memory, PCIe
link) through nvidia-smi when it is present.

The GPU rows of the report show a floor: the bytes a run copied between
host and device (bytes_h2d + bytes_d2h from the trace) over the host link
bandwidth, and over the GPU memory bandwidth (a kernel that reads every
copied byte once cannot be faster). The bandwidths are datasheet figures
(memory) and PCIe rates times an efficiency (link); the assumptions are
written into every report.
"""
import os
import platform
import re
import shutil
import socket
import subprocess

# Datasheet memory bandwidth in TB/s, matched against the nvidia-smi name
# (upper case, "NVIDIA " and dashes dropped) in this order: specific names
# before the names they contain (H100 PCIE before H100, A100 before A10).
GPU_MEMORY_TBPS = [
    (r"GH200", 4.0),
    (r"H200", 4.8),
    (r"H100 NVL", 3.9),
    (r"H100 PCIE", 2.0),
    (r"H100", 3.35),            # SXM5 (nvidia-smi: "NVIDIA H100 80GB HBM3")
    (r"H800 PCIE", 2.0),
    (r"H800", 3.35),
    (r"A100 SXM4 80GB|A100 80GB SXM", 2.039),
    (r"A100 80GB PCIE", 1.935),
    (r"A100", 1.555),           # 40 GB, SXM4 or PCIe
    (r"A800", 2.039),
    (r"A30\b", 0.933),
    (r"A40\b", 0.696),
    (r"A10\b", 0.6),
    (r"L40S|L40\b", 0.864),
    (r"L4\b", 0.3),
    (r"V100", 0.9),
    (r"T4\b", 0.32),
    (r"RTX 6000 ADA", 0.96),
    (r"RTX 4090", 1.008),
    (r"RTX 3090", 0.936),
]

# PCIe payload rate per lane and direction in GB/s (after line encoding).
PCIE_LANE_GBPS = {1: 0.25, 2: 0.5, 3: 0.985, 4: 1.969, 5: 3.938, 6: 7.563}
# Share of that rate a large pinned cudaMemcpy reaches in practice
# (Gen5 x16: 63 GB/s on paper, ~55 GB/s measured).
PCIE_EFFICIENCY = 0.87


def gpu_memory_tbps(name):
    """Memory bandwidth of a GPU by name (TB/s), None when unknown."""
    key = re.sub(r"[-_]", " ", name.upper()).replace("NVIDIA ", "").strip()
    for pattern, tbps in GPU_MEMORY_TBPS:
        if re.search(pattern, key):
            return tbps
    return None


def link_gbps(gen, width):
    """Practical one-direction PCIe bandwidth in GB/s, None when unknown."""
    if gen not in PCIE_LANE_GBPS or not width:
        return None
    return PCIE_LANE_GBPS[gen] * width * PCIE_EFFICIENCY


def _int(text):
    try:
        return int(str(text).strip())
    except (TypeError, ValueError):
        return None


def _run(cmd, timeout=30):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return p.stdout.strip() if p.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def gpus():
    """One dict per GPU from nvidia-smi; [] without nvidia-smi or device."""
    if shutil.which("nvidia-smi") is None:
        return []
    fields = ["name", "driver_version", "memory.total", "pcie.link.gen.max",
              "pcie.link.width.max"]
    out = _run(["nvidia-smi", "--query-gpu=" + ",".join(fields),
                "--format=csv,noheader,nounits"])
    if not out:
        return []
    result = []
    for line in out.splitlines():
        v = [x.strip() for x in line.split(",")]
        if len(v) < len(fields):
            continue
        gen, width = _int(v[3]), _int(v[4])
        assumed = False
        if gen is None or width is None:
            # Hopper parts are PCIe Gen5 x16; older ones assumed Gen4 x16.
            gen = 5 if re.search(r"H100|H200|H800|GH200", v[0].upper()) else 4
            width, assumed = 16, True
        result.append({
            "name": v[0], "driver": v[1], "memory_mib": _int(v[2]),
            "pcie_gen": gen, "pcie_width": width, "pcie_assumed": assumed,
            "link_gbps": link_gbps(gen, width),
            "memory_tbps": gpu_memory_tbps(v[0]),
        })
    return result


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _mem_gib():
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    return round(int(line.split()[1]) / 1048576, 1)
    except OSError:
        pass
    return None


def _os_name():
    try:
        with open("/etc/os-release") as f:
            m = re.search(r'^PRETTY_NAME="?([^"\n]*)', f.read(), re.M)
            return m.group(1) if m else None
    except OSError:
        return None


def _commit(repo_root, commit_file):
    if commit_file and os.path.isfile(commit_file):
        with open(commit_file) as f:
            return f.read().strip()
    return _run(["git", "-C", repo_root, "rev-parse", "HEAD"])


def describe(repo_root, commit_file=None):
    """Everything the report says about the machine."""
    return {
        "host": socket.gethostname(),
        "cpu_model": _cpu_model(),
        "logical_cpus": os.cpu_count(),
        "usable_cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None,
        "memory_gib": _mem_gib(),
        "os": _os_name(),
        "kernel": platform.release(),
        "python": platform.python_version(),
        "gdal": _run(["ogrinfo", "--version"]),
        "vsgpu_commit": _commit(repo_root, commit_file),
        "gpus": gpus(),
        "load_average_start": list(os.getloadavg()),
    }


def assumptions():
    """The bandwidth assumptions, as they are printed in the report."""
    return {
        "link": "host link = PCIe payload rate per lane x width (nvidia-smi "
                "pcie.link.gen.max / width.max) x %.2f efficiency: Gen5 x16 = "
                "%.0f GB/s, Gen4 x16 = %.0f GB/s per direction; H2D and D2H "
                "counted as if serialised" % (
                    PCIE_EFFICIENCY, link_gbps(5, 16), link_gbps(4, 16)),
        "memory": "GPU memory bandwidth = datasheet figure by GPU name "
                  "(H100 SXM 3.35 TB/s, H100 PCIe 2.0, H100 NVL 3.9, H200 4.8, "
                  "A100 40GB 1.555, A100 80GB SXM 2.039, L40S 0.864, ...); "
                  "floor = bytes copied / bandwidth, i.e. every copied byte "
                  "read once",
    }
