import { useEffect, useMemo, useState } from 'react';
import type { ProjectView } from '../../../../core/common/project/projectApi';
import { assignedItemsFirst } from '../../../../core/common/adjudication/adjudicationFold';
import { useApi } from '../../shared/api';

/** Items an adjudicator assigned to this annotator, and the project's items with those first: she finds them first, and labels them blind like any other. */
export function useAssignedItems(projectItems: ProjectView['items'], annotator: string) {
  const client = useApi();
  const [assigned, setAssigned] = useState<ReadonlySet<string>>(() => new Set());
  useEffect(() => {
    let live = true;
    // a host without adjudication (or a refusal) leaves the project's order as it is
    void Promise.resolve()
      .then(() => client.assignedItems())
      .then(
        (ids) => live && ids.length > 0 && setAssigned(new Set(ids)),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [client, annotator]);
  const items = useMemo(() => assignedItemsFirst(projectItems, assigned), [projectItems, assigned]);
  return { assigned, items };
}
