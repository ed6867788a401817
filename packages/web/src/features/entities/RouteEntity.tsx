import type { Bill } from '@billfold/contract/bills';
import Alert from '@mui/material/Alert';
import type { ComponentType, ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { useEntity } from '../../api/entities/get-entity.ts';
import { PageProgress } from '../../components/PageProgress.tsx';
import { parseRouteId } from '../../lib/route-id.ts';

interface Props {
  /** The page's frame, around the entity or the reason there is none. */
  frame: ComponentType<{ children: ReactNode }>;
  children: (bill: Bill) => ReactNode;
}

/** The entity of the route's `{id}`: a progress bar while it loads, then it or why not, in the page's frame. */
export function RouteEntity({ frame: Frame, children }: Props) {
  const bill = useEntity(parseRouteId(useParams().id));

  if (bill.isPending) return <PageProgress />;
  if (bill.isError)
    return (
      <Frame>
        <Alert severity="error">Failed to load entity.</Alert>
      </Frame>
    );
  if (!bill.data)
    return (
      <Frame>
        <Alert severity="error">Entity not found.</Alert>
      </Frame>
    );
  return <Frame>{children(bill.data)}</Frame>;
}
