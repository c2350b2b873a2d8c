import Foundation

/// How many cores this process may run on: the CPUs of its affinity mask (what `taskset` and a
/// Slurm allocation set, and what `nproc` prints), not every core the machine has, which is what
/// Foundation's `activeProcessorCount` gives on Linux. The default and the ceiling of `--jobs`
/// follow it, so `taskset -c 0 facekit analyze` runs one worker.
///
/// The mask is read from `/proc/self/status` (`Cpus_allowed`, hexadecimal words): glibc's
/// `sched_getaffinity` is not visible to Swift without `_GNU_SOURCE`.
///
/// ```swift
/// UsableCores.count   // 1 under `taskset -c 0`, 2 on a 2-core machine otherwise
/// ```
enum UsableCores {
    static let count: Int = {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed:") })
        else { return machine }
        let mask = line.dropFirst("Cpus_allowed:".count).filter { !$0.isWhitespace && $0 != "," }
        let cpus = mask.reduce(0) { $0 + (Int(String($1), radix: 16) ?? 0).nonzeroBitCount }
        return cpus > 0 ? min(cpus, machine) : machine
    }()
}
