import type { Bill } from '@billfold/contract/bills';
import Alert from '@mui/material/Alert';
import type { ComponentType, ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { useEntityInBin } from '../../api/entities/find-entity-in-bin.ts';
import { useEntity } from '../../api/entities/get-entity.ts';
import { NotFoundNotice } from '../../components/NotFoundNotice.tsx';
import { PageProgress } from '../../components/PageProgress.tsx';
import { parseRouteId } from '../../lib/route-id.ts';

interface Props {
  /** The page's frame, around the entity or the reason there is none. */
  frame: ComponentType<{ children: ReactNode }>;
  children: (bill: Bill) => ReactNode;
}

/** The entity of the route's `{id}`: a progress bar while it loads, then it or why not, in the page's frame. */
export function RouteEntity({ frame: Frame, children }: Props) {
  const { id } = useParams();
  const bill = useEntity(parseRouteId(id));

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
        <EntityNotFound billId={parseRouteId(id)} />
      </Frame>
    );
  return <Frame>{children(bill.data)}</Frame>;
}

/** "Entity not found.", and where it went when it is in the recycle bin. */
function EntityNotFound({ billId }: { billId: number | null }) {
  const inBin = useEntityInBin(billId);
  if (inBin.isLoading) return <PageProgress />;
  return <NotFoundNotice message="Entity not found." what="entity" inBin={inBin.data === true} />;
}
