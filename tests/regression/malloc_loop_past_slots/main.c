// 300 executions of one malloc site: more than the 256 objects per site siren grows to, so the
// answer is UNKNOWN with that limit, never a guess.
#include <stdlib.h>

extern void reach_error(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 300; i++) {
    struct node *n = malloc(sizeof *n);
    if (!n) return 0;
    n->v = i;
    n->next = head;
    head = n;
  }
  if (head->v != 299) reach_error();
  return 0;
}
