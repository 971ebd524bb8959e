from typing import List, Optional


class TreeNode:
    def __init__(self, value: int):
        self.value = value
        self.left: Optional[TreeNode] = None
        self.right: Optional[TreeNode] = None


def insert(root: Optional[TreeNode], v: int) -> TreeNode:
    if root is None:
        return TreeNode(v)
    if v < root.value:
        root.left = insert(root.left, v)
    else:
        root.right = insert(root.right, v)
    return root


def inorder(node: Optional[TreeNode], out: List[int]) -> None:
    if node is None:
        return
    inorder(node.left, out)
    out.append(node.value)
    inorder(node.right, out)


def height(node: Optional[TreeNode]) -> int:
    if node is None:
        return 0
    return 1 + max(height(node.left), height(node.right))


def build(xs: List[int]) -> List[int]:
    root: Optional[TreeNode] = None
    for x in xs:
        root = insert(root, x)
    out: List[int] = []
    inorder(root, out)
    return out + [height(root)]


CASES = [("build", ([5, 3, 8, 1, 4, 7, 9, 2],)), ("build", ([],))]
