//! How long the herder's start/stop pool takes to stop a batch of work
//! (`DistributedHerder`'s revocation callback, run from
//! `WorkerCoordinator.onJoinComplete`): every revoked connector and task is stopped by its own
//! callable on a pool of 8 threads (`START_STOP_THREAD_POOL_SIZE`),
//! connectors first, each waiting up to its own timeout.

/// Threads in the herder's start/stop pool.
pub(crate) const START_STOP_THREADS: usize = 8;

/// Kafka's hard-coded connector stop timeout (`CONNECTOR_GRACEFUL_SHUTDOWN_TIMEOUT_MS`).
pub(crate) const CONNECTOR_GRACEFUL_SHUTDOWN_TIMEOUT_MS: u64 = 5_000;

/// The makespan of stopping `connectors` connectors (each `connector_ms`)
/// then `tasks` tasks (each `task_ms`) on the pool: each thread takes the
/// next callable when it is free.
pub(crate) fn parallel_stop_ms(
    connectors: usize,
    connector_ms: u64,
    tasks: usize,
    task_ms: u64,
) -> u64 {
    let mut free = [0u64; START_STOP_THREADS];
    let mut run = |mut n: usize, d: u64| {
        while n > 0 {
            let (lo, hi) = (
                free.iter().min().copied().unwrap_or(0),
                free.iter().max().copied().unwrap_or(0),
            );
            if hi - lo < d {
                // Every thread is free within less than one callable of the
                // others, so the next 8 callables go one per thread: skip
                // whole waves, then place the rest on the earliest threads.
                let waves = (n / START_STOP_THREADS) as u64;
                for t in free.iter_mut() {
                    *t += waves * d;
                }
                n %= START_STOP_THREADS;
                for _ in 0..n {
                    let t = free.iter_mut().min().expect("eight threads");
                    *t += d;
                }
                return;
            }
            let t = free.iter_mut().min().expect("eight threads");
            *t += d;
            n -= 1;
        }
    };
    run(connectors, connector_ms);
    run(tasks, task_ms);
    free.into_iter().max().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waves_of_eight() {
        assert_eq!(parallel_stop_ms(0, 200, 0, 500), 0);
        assert_eq!(parallel_stop_ms(0, 200, 8, 500), 500);
        assert_eq!(parallel_stop_ms(0, 200, 9, 500), 1_000);
        assert_eq!(parallel_stop_ms(0, 200, 100, 500), 6_500);
        // Two connectors take two threads for 200 ms; 7 tasks fill the rest.
        assert_eq!(parallel_stop_ms(2, 200, 7, 500), 700);
        // Short tasks queue behind each other on the threads the connectors left free.
        assert_eq!(parallel_stop_ms(7, 200, 3, 100), 300);
    }
}
