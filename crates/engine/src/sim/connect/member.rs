//! Member ids: `connect-<worker>-<uuid>` like Kafka's (Connect's client id,
//! then a broker-made uuid; `EagerAssignor` sorts by it), the uuid drawn from the scenario seed.
//!
//! Maps keyed by member id are keyed by [`MemberKey`] instead of the string:
//! it compares exactly as the id string does (so every "ascending member id"
//! order is the string order) but costs a few integer compares.

/// A member id as an ordered key: compares like the id string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct MemberKey {
    /// Rank of the worker name in string order.
    name_rank: u32,
    /// The uuid's first three fields (the constant version nibble cleared).
    hi: u64,
    /// The uuid's last two fields.
    lo: u64,
    /// Index of the membership in the trace's member table (ties impossible
    /// in practice; it also makes the key a direct index).
    pub(crate) no: u32,
}

/// SplitMix64: a tiny deterministic generator.
fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Ranks of `worker-1 … worker-n` in string order (`worker-10` < `worker-2`).
pub(crate) fn name_ranks(n: u32) -> Vec<u32> {
    let mut names: Vec<(String, u32)> = (1..=n)
        .map(|i| (crate::scenario::worker_name(i), i - 1))
        .collect();
    crate::sort_by_key::sort_values(&mut names);
    let mut ranks = vec![0; n as usize];
    for (rank, (_, lane)) in names.into_iter().enumerate() {
        ranks[lane as usize] = rank as u32;
    }
    ranks
}

/// The id of membership number `no` (the trace's member table) of a worker: (key, id string).
/// `name_rank` is the worker name's rank among every worker name (all are
/// `worker-<n>`, so comparing ids compares names first, then uuids).
pub(crate) fn member_id(seed: u64, no: u32, name: &str, name_rank: u32) -> (MemberKey, String) {
    let a = splitmix64(seed ^ splitmix64(u64::from(no) + 1));
    let b = splitmix64(a ^ u64::from(name_rank));
    let variant = 0x8000 | ((b >> 48) & 0x3fff);
    let tail = b & 0xffff_ffff_ffff;
    let id = format!(
        "connect-{name}-{:08x}-{:04x}-4{:03x}-{variant:04x}-{tail:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff
    );
    let key = MemberKey {
        name_rank,
        hi: a & !0xF000,
        lo: (variant << 48) | tail,
        no,
    };
    (key, id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_order_like_strings() {
        let ranks = name_ranks(12);
        let mut pairs: Vec<(MemberKey, String)> = Vec::new();
        for no in 0..200u32 {
            let lane = no % 12;
            pairs.push(member_id(
                7,
                no,
                &crate::scenario::worker_name(lane + 1),
                ranks[lane as usize],
            ));
        }
        let mut by_key = pairs.clone();
        by_key.sort_by_key(|p| p.0);
        let mut by_string = pairs;
        by_string.sort_by(|a, b| a.1.cmp(&b.1));
        assert_eq!(by_key, by_string);
        assert!(by_key[0].1.starts_with("connect-worker-1-"));
    }
}
