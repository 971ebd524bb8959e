from typing import List, Optional


class ListNode:
    def __init__(self, value: int, nxt: Optional["ListNode"]):
        self.value = value
        self.next = nxt


def from_list(xs: List[int]) -> Optional[ListNode]:
    head: Optional[ListNode] = None
    for x in reversed(xs):
        head = ListNode(x, head)
    return head


def to_list(node: Optional[ListNode]) -> List[int]:
    out: List[int] = []
    while node is not None:
        out.append(node.value)
        node = node.next
    return out


def reverse(node: Optional[ListNode]) -> Optional[ListNode]:
    prev: Optional[ListNode] = None
    while node is not None:
        nxt = node.next
        node.next = prev
        prev = node
        node = nxt
    return prev


def roundtrip(xs: List[int]) -> List[int]:
    return to_list(reverse(from_list(xs)))


CASES = [("roundtrip", ([1, 2, 3, 4],)), ("roundtrip", ([],))]
