//! Unit tests of [`Timeline`](super::Timeline): batch lists, span splitting, unassigned derivation and copies of one item.

use super::*;

fn expand(spans: &[StateSpan], pool: &ItemPool) -> Vec<(u32, Option<u32>, ItemState, u64, u64)> {
    let mut v: Vec<_> = spans
        .iter()
        .flat_map(|s| {
            pool.get(s.items)
                .iter()
                .map(move |&i| (i, s.worker, s.state, s.start_ms, s.end_ms))
        })
        .collect();
    v.sort_unstable();
    // Merge pieces of one state on one lane that touch.
    let mut merged: Vec<(u32, Option<u32>, ItemState, u64, u64)> = Vec::new();
    for x in v {
        match merged.last_mut() {
            Some(m) if m.0 == x.0 && m.1 == x.1 && m.2 == x.2 && m.4 == x.3 => m.4 = x.4,
            _ => merged.push(x),
        }
    }
    merged
}

#[test]
fn batch_lifecycle_shares_one_list() {
    let mut pool = ItemPool::default();
    let mut t = Timeline::new();
    t.ensure_items(3);
    for i in 0..3 {
        t.set_configured(i, true, &mut pool);
    }
    let b = t.place(0, ItemState::Starting, vec![0, 1, 2], None, &mut pool);
    t.advance(10, &mut pool);
    t.set_state(b, ItemState::Running, &mut pool);
    t.advance(50, &mut pool);
    t.set_state(b, ItemState::Stopping, &mut pool);
    t.advance(60, &mut pool);
    t.release(b, &mut pool);
    t.advance(70, &mut pool);
    let b2 = t.place(1, ItemState::Starting, vec![2, 1, 0], None, &mut pool);
    assert_eq!(t.batch_len(b2), 3);
    let (spans, configured) = t.finish(100, &mut pool);
    // starting, running, stopping, unassigned share one list; the new batch has its own.
    assert_eq!(spans.len(), 5);
    assert_eq!(pool.get(ItemList { start: 0, len: 3 }), &[0, 1, 2]);
    assert!(spans[..4].iter().all(|s| s.items == spans[0].items));
    assert_eq!(spans[3].state, ItemState::Unassigned);
    assert_eq!((spans[3].start_ms, spans[3].end_ms), (60, 70));
    assert_eq!(configured.len(), 1);
    assert_eq!(configured[0].items.len, 3);
}

#[test]
fn split_and_unassigned_derivation() {
    let mut pool = ItemPool::default();
    let mut t = Timeline::new();
    t.ensure_items(4);
    for i in 0..4 {
        t.set_configured(i, true, &mut pool);
    }
    t.advance(1, &mut pool);
    let b = t.place(0, ItemState::Running, vec![0, 1, 2, 3], None, &mut pool);
    t.advance(20, &mut pool);
    let moved = t.split_off(0, &[1, 3], ItemState::Stopping, &mut pool);
    assert_eq!(moved.len(), 1);
    assert_eq!(t.batch_len(b), 2);
    t.advance(30, &mut pool);
    t.release(moved[0], &mut pool);
    t.advance(40, &mut pool);
    t.place(1, ItemState::Starting, vec![1], None, &mut pool);
    t.remove_copy(0, 0, &mut pool);
    t.set_configured(0, false, &mut pool);
    let (spans, _) = t.finish(50, &mut pool);
    let iv = expand(&spans, &pool);
    use ItemState::*;
    assert!(iv.contains(&(0, None, Unassigned, 0, 1)));
    assert!(iv.contains(&(0, Some(0), Running, 1, 40)));
    assert!(iv.contains(&(1, Some(0), Stopping, 20, 30)));
    assert!(iv.contains(&(1, None, Unassigned, 30, 40)));
    assert!(iv.contains(&(1, Some(1), Starting, 40, 50)));
    assert!(iv.contains(&(3, None, Unassigned, 30, 50)));
    assert!(iv.contains(&(2, Some(0), Running, 1, 50)));
    assert!(
        !iv.iter().any(|x| x.0 == 0 && x.3 >= 40),
        "item 0 was deconfigured"
    );
}

#[test]
fn two_copies_of_one_item() {
    let mut pool = ItemPool::default();
    let mut t = Timeline::new();
    t.ensure_items(1);
    t.set_configured(0, true, &mut pool);
    let a = t.place(0, ItemState::Zombie, vec![0], None, &mut pool);
    t.place(1, ItemState::Running, vec![0], None, &mut pool);
    assert_eq!(t.copies(0).len(), 2);
    t.advance(5, &mut pool);
    t.release(a, &mut pool);
    assert_eq!(t.copies(0), vec![(1, ItemState::Running)]);
    let (spans, _) = t.finish(9, &mut pool);
    assert!(!spans.iter().any(|s| s.state == ItemState::Unassigned));
}
