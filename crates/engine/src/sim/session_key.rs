//! KIP-507 as the code has it (`DistributedHerder`, `InternalRequestSignature`):
//! the leader writes a session key to
//! the config topic and rotates it every `inter.worker.key.ttl.ms`; followers
//! sign *internal REST requests* with it (task-config forwarding), and the
//! leader verifies them while the group runs `sessioned`. Group assignments
//! are never signed.
//!
//! Keys are modelled by number: the simulator needs to know which key signed a
//! request and which key the leader holds, not the HMAC bytes.

/// A session key in the config topic (record key `session-key`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SessionKey {
    /// 1 for the first key written, then 2, 3 …
    pub(crate) id: u32,
    /// `creation-timestamp`.
    pub(crate) created_ms: u64,
}

impl SessionKey {
    /// When a leader must replace it; `None` when `inter.worker.key.ttl.ms`
    /// is 0 (Kafka then never tracks an expiration).
    pub(crate) fn expires_ms(self, ttl_ms: u64) -> Option<u64> {
        (ttl_ms > 0).then(|| self.created_ms.saturating_add(ttl_ms))
    }
}

/// Whether a leader must write a new key now (`checkForKeyRotation`): no key
/// yet, or the current one expired.
pub(crate) fn needs_new_key(current: Option<SessionKey>, ttl_ms: u64, now_ms: u64) -> bool {
    match current {
        None => true,
        Some(key) => key.expires_ms(ttl_ms).is_some_and(|e| e <= now_ms),
    }
}

/// The leader's verdict on a forwarded internal request
/// (`DistributedHerder.requestNotSignedProperly`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SignatureCheck {
    /// The group does not run `sessioned`: nothing is verified.
    NotValidated,
    /// Signed with the leader's current key.
    Valid,
    /// No signature headers: 400 Bad Request.
    Missing,
    /// The leader has not read a session key yet: 503 Service Unavailable.
    LeaderHasNoKey,
    /// Signed with another key than the leader's: 403 Forbidden.
    Invalid {
        /// The key that signed the request.
        signed_with: u32,
        /// The key the leader holds.
        leader_key: u32,
    },
}

impl SignatureCheck {
    /// The HTTP status the leader answers with.
    pub(crate) fn status(self) -> u16 {
        match self {
            Self::NotValidated | Self::Valid => 200,
            Self::Missing => 400,
            Self::LeaderHasNoKey => 503,
            Self::Invalid { .. } => 403,
        }
    }

    /// True when the request is accepted.
    pub(crate) fn accepted(self) -> bool {
        self.status() == 200
    }
}

/// Verifies a request signed with `signed_with` (the follower's key, if it has
/// read one) against the leader's key. `validation_enabled` is true while the
/// leader's current group protocol is `sessioned` (V2).
pub(crate) fn check_signature(
    validation_enabled: bool,
    signed_with: Option<u32>,
    leader_key: Option<u32>,
) -> SignatureCheck {
    if !validation_enabled {
        return SignatureCheck::NotValidated;
    }
    match (signed_with, leader_key) {
        (None, _) => SignatureCheck::Missing,
        (Some(_), None) => SignatureCheck::LeaderHasNoKey,
        (Some(s), Some(l)) if s == l => SignatureCheck::Valid,
        (Some(s), Some(l)) => SignatureCheck::Invalid {
            signed_with: s,
            leader_key: l,
        },
    }
}

/// Delay before retry `attempt` (1-based) of a failed task-config forward:
/// 250 ms doubling up to 60 s, no jitter (`DistributedHerder`'s forwarding
/// retry backoff).
pub(crate) fn forward_retry_backoff_ms(attempt: u32) -> u64 {
    let shift = attempt.saturating_sub(1).min(20);
    (250u64 << shift).min(60_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotation_and_verification() {
        let k = SessionKey {
            id: 1,
            created_ms: 1_000,
        };
        assert!(needs_new_key(None, 3_600_000, 0));
        assert!(!needs_new_key(Some(k), 3_600_000, 3_600_999));
        assert!(needs_new_key(Some(k), 3_600_000, 3_601_000));
        assert!(!needs_new_key(Some(k), 0, u64::MAX), "ttl 0 never rotates");
        assert_eq!(
            check_signature(false, None, None),
            SignatureCheck::NotValidated
        );
        assert_eq!(check_signature(true, None, Some(1)).status(), 400);
        assert_eq!(check_signature(true, Some(1), None).status(), 503);
        assert_eq!(check_signature(true, Some(1), Some(2)).status(), 403);
        assert!(check_signature(true, Some(2), Some(2)).accepted());
    }

    #[test]
    fn backoff_doubles_to_a_minute() {
        assert_eq!(forward_retry_backoff_ms(1), 250);
        assert_eq!(forward_retry_backoff_ms(2), 500);
        assert_eq!(forward_retry_backoff_ms(9), 60_000);
        assert_eq!(forward_retry_backoff_ms(100), 60_000);
    }
}
